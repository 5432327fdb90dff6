import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Attaches a credential to the requests for the origins it belongs to, and refreshes it once when the server
/// rejects it: a ``Middleware``.
///
/// `credential` is asked for the first credential with `nil`, and for a new one with the credential the server
/// rejected. However many loads are rejected at once, it is asked once, and they all retry with its answer; a load
/// rejected with a credential that was already replaced just retries. When it throws, the loads waiting for it fail
/// with ``WebserviceError/Reason/authentication(_:)``. The app signs in and out with ``setCredential(_:)`` and
/// ``removeCredential()``. The rules are in <doc:AuthenticatingRequests>.
///
/// ```swift
/// let authentication = Authentication(for: [URL(string: "https://api.example.com")!]) { rejected in
///     "Bearer " + (try await tokens.accessToken(refreshing: rejected != nil))
/// }
/// let webservice = Webservice(middleware: [authentication])
/// ```
///
/// It is a value, and its copies share one credential: the initializer makes the store that holds it, and every copy
/// refers to that store, the one you keep and the one in the web service's middleware alike. A credential set or
/// removed through any copy is the one every copy sends. Two middleware made by two initializer calls share nothing.
public struct Authentication: Middleware {
    /// The origins (scheme, host and port) whose requests get the credential.
    private let origins: Set<Origin>
    /// The header field the credential is sent in.
    private let headerField: String
    /// The statuses that mean the credential was rejected.
    private let rejectionStatusCodes: Set<Int>
    private let store: CredentialStore<String>

    /// Creates a middleware that sends the value `credential` gives in `headerField`, to the origins of `urls` only.
    ///
    /// - Parameters:
    ///   - urls: URLs of the servers the credential belongs to; only their scheme, host and port count.
    ///   - headerField: The header field that carries the credential.
    ///   - statusCodes: The statuses that mean the server rejected the credential.
    ///   - credential: Returns the header field's value, such as `"Bearer abc123"`, given the rejected one when it is
    ///     asked for a new one.
    public init(
        for urls: [URL],
        headerField: String = "Authorization",
        refreshingOn statusCodes: Set<Int> = [401],
        credential: @escaping @Sendable (_ rejected: String?) async throws -> String
    ) {
        origins = Set(urls.map(Origin.init))
        self.headerField = headerField
        rejectionStatusCodes = statusCodes
        let fetching = Fetching()
        self.fetching = fetching
        store = CredentialStore { rejected in
            // A provider that loads its token through this very middleware must not wait for itself.
            let value = try await Self.$fetchingFor.withValue(ObjectIdentifier(fetching)) {
                try await credential(rejected)
            }
            // Checked before it is kept: a value with a line break would fail every load until the process ends.
            try HeaderField(name: headerField, value: value).validate()
            return value
        }
    }

    /// Makes `credential` the header field's value from now on, as after signing in, for every copy of this
    /// middleware.
    ///
    /// It replaces the current credential and any that the closure is fetching or refreshing: the loads waiting for
    /// one go on at once with `credential`, and the closure's answer is dropped. When the server rejects `credential`,
    /// the closure is asked for a new one, given it. See <doc:AuthenticatingRequests#Signing-in-and-out>.
    ///
    /// - Throws: ``WebserviceError/Reason/encoding(_:)`` when `credential` is not a valid header field value, such as
    ///   one with a line break, naming the field but never the value; nothing changes then.
    public func setCredential(_ credential: String) async throws(WebserviceError) {
        try HeaderField(name: headerField, value: credential).validate()
        await store.set(credential)
    }

    /// Forgets the credential, as after signing out, for every copy of this middleware.
    ///
    /// A fetch or refresh in flight is dropped, its answer never sent. The next load that needs a credential asks the
    /// closure for a first one, with `nil`, as the first load did, and so does a load in flight that the server
    /// rejects: none sends the forgotten credential again. See <doc:AuthenticatingRequests#Signing-in-and-out>.
    public func removeCredential() async {
        await store.set(nil)
    }

    /// The identity of this middleware and its copies, for ``fetchingFor``.
    private final class Fetching: Sendable {}
    private let fetching: Fetching

    /// The middleware whose provider is running in this task, if any.
    ///
    /// A provider that loads its token through this very middleware must not wait for itself. It marks the provider's
    /// task, not a load's state: no other layer reads it. A task local, as no explicit value can reach the provider's
    /// own load: the provider is the app's closure, which calls the public `Webservice.load(_:)`, and neither takes
    /// a value to pass on to this middleware.
    @TaskLocal private static var fetchingFor: ObjectIdentifier?

    /// Sends `request` with the credential when its origin is one the credential belongs to and it doesn't set the
    /// field itself; after a rejection, sends it once more with a refreshed credential.
    public func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        let url = request.url
        // A resource that sends no credentials, such as the sign-in request itself, never asks for one.
        guard context.sendsCredentials, origins.contains(Origin(url)),
            request.value(forHTTPHeaderField: headerField) == nil, Self.fetchingFor != ObjectIdentifier(fetching)
        else { return try await next(request, context) }
        let issued = try await authenticated(removing: []) { try await store.credential() }
        let response = try await next(request.adding(issued.credential, as: headerField), context)
        guard rejectionStatusCodes.contains(response.statusCode), Self.isAnswer(response, from: url) else {
            return response
        }
        let (refreshed, started) = try await authenticated(removing: [issued.credential]) {
            try await store.refresh(after: issued.generation)
        }
        if started { context.report(.credentialRefreshed, for: request) }
        return try await next(request.adding(refreshed.credential, as: headerField), context)
    }

    /// Whether `response` came from the origin of `url`, to which the credential was sent.
    ///
    /// Another origin a redirect led to never got the credential, so it can't have rejected it. A response without a
    /// URL is taken to come from `url`.
    private static func isAnswer(_ response: Response, from url: URL) -> Bool {
        guard let answered = response.url else { return true }
        return Origin(answered) == Origin(url)
    }

    /// The result of `body`, a provider's error becoming ``WebserviceError/Reason/authentication(_:)`` without `secrets`.
    private func authenticated<T>(removing secrets: [String], _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error where error is CancellationError && Task.isCancelled {
            throw error
        } catch {
            throw WebserviceError(.authentication(Redaction.sanitized(error, removing: secrets)))
        }
    }
}

extension Request {
    /// This request with `credential`, already checked to be valid HTTP, in the header field `name`.
    fileprivate func adding(_ credential: String, as name: String) -> Request {
        var request = self
        request.setValue(credential, forHTTPHeaderField: name)
        return request
    }
}
