import Foundation
import ResourceKit

/// An app's settings, a property list.
public struct AppSettings: Decodable, Sendable {
    /// Whether downloads wait for Wi-Fi.
    public var downloadsOnWiFiOnly: Bool
}

/// Where the settings are.
public let settingsURL = baseURL.appendingPathComponent("settings.plist")

/// A cover's PNG bytes.
public let png = Data()
