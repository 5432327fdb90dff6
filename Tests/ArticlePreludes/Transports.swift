import Foundation
import ResourceKit

/// Another HTTP client, which streams a response's body.
public struct StreamingClient: Sendable {
    /// A response's head.
    public struct Head: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var fields: [String: String]
    }

    /// Sends a request and returns the response's head and its body as it arrives.
    public func stream(_ request: Request) async throws -> (Head, AsyncThrowingStream<Data, any Error>) {
        (Head(status: 200, fields: [:]), AsyncThrowingStream { $0.finish() })
    }
}

/// A certificate authority of a company's own, PEM or DER.
public let privateCA = Data()

/// A client certificate and its key, PKCS#12.
public let p12 = Data()

/// The pins of a server's current key and of a backup key.
public let (current, backup) = (
    "JmHaysgRe22ETZR55gQZgnYnYYQzFObshv16yqujzas=", "+hvZieUO3aw9kCGttz9Zz5pddbrETcOo0fS9y0dwl5U="
)

/// A JSON file bundled with the app.
public let bundledEpisodesURL = URL(fileURLWithPath: "/tmp/episodes.json")
