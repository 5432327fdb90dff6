import Foundation

/// A large body's URL.
public let exportURL = baseURL.appendingPathComponent("export.zip")
