import Foundation

/// The episodes a view shows.
@MainActor public var episodes: [Episode] = []

/// Shows the sign-in screen.
@MainActor public func signIn() {}

/// Tells the user the device is offline.
@MainActor public func showOfflineBanner() {}

/// Tells the user the server is down for maintenance, until the time a `Retry-After` field names.
@MainActor public func showMaintenanceNotice(until retryAfter: String?) {}
