import Foundation
internal import ResourceKitSupport

/// Whether a header field with this name is known to carry no credential, in any letter case: one of the names
/// <doc:Transports#Redirects-and-safe-header-fields> lists, or among the `extra` names, in ASCII lowercase, that a
/// caller declared safe.
public func isSafeHeader(_ name: String, extra: Set<String> = []) -> Bool {
    isSafeHeaderName(name, extra: extra)
}

extension Request {
    /// The URL with its credentials masked (its user and password, credential query values, and any value of an unsafe
    /// header field in it), as errors, events and logs show it; `nil` when the masked URL can't be made.
    public var redactedURL: URL? {
        Redaction.redacted(url, removing: secrets)
    }

    /// The credentials the request carries: the values of its unsafe header fields and the credentials inside them
    /// (the token after `Bearer`, each cookie's value, …), its URL's user and password, and its credential query
    /// values, each as it is and as the URL encodes it.
    var secrets: [String] {
        Redaction.secrets(url: url, fields: headerFields.lazy.map { ($0.name, $0.value) })
    }

    /// This request as it may go to an origin the caller didn't choose, with only the safe header fields.
    ///
    /// The fields are those of ``isSafeHeader(_:extra:)``; a transport adds no cookies of its own to it
    /// (``LoadContext/sendsCredentials``).
    public var withoutCredentials: Request {
        var request = self
        request.headerFields.removeAll { !isSafeHeader($0.name) }
        return request
    }
}

extension Request: CustomReflectable {
    /// The method, the URL and the header fields without credentials (only harmless values shown), and what the body
    /// is: what `print`, `dump` and string interpolation show.
    public var customMirror: Mirror {
        let secrets = secrets
        let fields = headerFields.map { field in
            field.name + ": "
                + (isSafeHeader(field.name) ? Redaction.scrub(field.value, removing: secrets) : Redaction.mark)
        }
        let body: String =
            switch body?.storage {
            case nil: "none"
            case .data(let data): "\(data.count) bytes"
            case .file: "a file"
            case .encoding: "a form"
            }
        return Mirror(
            self,
            children: [
                "method": method, "url": redactedURL?.absoluteString ?? Redaction.mark, "headerFields": fields,
                "body": body,
            ],
            displayStyle: .struct)
    }
}
