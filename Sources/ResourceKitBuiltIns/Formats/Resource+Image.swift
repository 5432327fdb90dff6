import ResourceKitCore
internal import ResourceKitSupport
#if canImport(UIKit)
    import UIKit

    /// The platform's image type: `UIImage` here, `NSImage` on macOS.
    public typealias PlatformImage = UIImage
#elseif canImport(AppKit)
    import AppKit

    /// The platform's image type: `NSImage` here, `UIImage` on iOS, tvOS, watchOS and visionOS.
    public typealias PlatformImage = NSImage
#endif

#if canImport(UIKit) || canImport(AppKit)
    import Foundation

    extension Resource where A == PlatformImage {
        /// Creates a `GET` resource whose body is an image in any format the platform reads, such as PNG or JPEG.
        ///
        /// ```swift
        /// let avatar = Resource<PlatformImage>(url: avatarURL)
        /// ```
        public init(url: URL, headers: [String: String] = [:]) {
            self.init(
                url: url, method: .get, headers: headers,
                parse: { data in
                    guard let image = PlatformImage(data: data) else {
                        throw DecodingError.corruptedBody(
                            "The body (\(data.count) bytes) is not an image this platform reads.")
                    }
                    return image
                })
        }
    }
#endif
