import Foundation
import ResourceKitCore
internal import ResourceKitSupport

extension Resource where A == URL {
    /// Creates a resource whose response body is saved to the file at `destination` as it arrives, never held in
    /// memory; the model is `destination`.
    ///
    /// The file replaces what was at `destination` only once the whole body has arrived; a load that fails or is
    /// cancelled leaves it as it was. See <doc:TransferringFiles>.
    ///
    /// ```swift
    /// let saved = try await webservice.load(Resource(url: videoURL, downloadingTo: moviesURL.appendingPathComponent("1.mp4")))
    /// ```
    public init(
        url: URL,
        method: HTTPMethod<Data> = .get,
        headers: [String: String] = [:],
        downloadingTo destination: URL
    ) {
        self.init(url: url, method: method, headers: headers, parse: { _ in destination })
        self.destination = destination
        receiver = Downloading()
    }
}
