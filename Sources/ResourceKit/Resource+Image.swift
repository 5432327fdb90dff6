#if canImport(UIKit)
    import Foundation
    import UIKit

    extension Resource where A == UIImage {
        /// Creates a `GET` resource whose body is an image in any format `UIImage` reads, such as PNG, JPEG or HEIC.
        ///
        /// ```swift
        /// let avatar = Resource<UIImage>(url: avatarURL)
        /// ```
        ///
        /// - Parameters:
        ///   - url: The image's URL.
        ///   - headers: Header fields to send. Defaults to none.
        public init(url: URL, headers: [String: String] = [:]) {
            self.init(
                url: url, method: .get, headers: headers,
                parse: { data in
                    guard let image = UIImage(data: data) else {
                        throw ImageResourceError.undecodable(byteCount: data.count)
                    }
                    return image
                })
        }
    }
#elseif canImport(AppKit)
    import AppKit
    import Foundation

    extension Resource where A == NSImage {
        /// Creates a `GET` resource whose body is an image in any format `NSImage` reads, such as PNG, JPEG or HEIC.
        ///
        /// ```swift
        /// let avatar = Resource<NSImage>(url: avatarURL)
        /// ```
        ///
        /// - Parameters:
        ///   - url: The image's URL.
        ///   - headers: Header fields to send. Defaults to none.
        public init(url: URL, headers: [String: String] = [:]) {
            self.init(
                url: url, method: .get, headers: headers,
                parse: { data in
                    guard let image = NSImage(data: data) else {
                        throw ImageResourceError.undecodable(byteCount: data.count)
                    }
                    return image
                })
        }
    }
#endif

#if canImport(UIKit) || canImport(AppKit)
    /// Why an image resource's parse rejected a response body.
    public enum ImageResourceError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The body is not an image the platform can decode; `byteCount` is its size (`0` for an empty body).
        case undecodable(byteCount: Int)

        /// A one-line account of the failure.
        public var description: String {
            switch self {
            case .undecodable(let byteCount): "The body (\(byteCount) bytes) is not an image this platform can decode."
            }
        }
    }
#endif
