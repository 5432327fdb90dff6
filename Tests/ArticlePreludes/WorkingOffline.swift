import Foundation

/// The app's caches directory.
public let cachesURL = FileManager.default.temporaryDirectory
