import Foundation
import ResourceKitCore
internal import ResourceKitSupport
import Synchronization

/// The servers a session's trust policy refused, by host and port, until one is accepted again: the delegate cancels
/// a refused connection, and ``SessionDelegate/send(_:in:maxBodySize:backlog:transfer:)`` reports why instead of
/// `.cancelled`.
///
/// Recorded on Apple platforms only, where a delegate evaluates the server's certificate; shared, so Linux tests it.
final class TrustRefusals: Sendable {
    private let refusals = Mutex<[String: URLError]>([:])

    /// Records why the server at `host` and `port` was refused, or, with `nil`, that it was accepted.
    func record(_ refusal: URLError?, host: String, port: Int) {
        refusals.withLock { $0[Self.key(host: host, port: port)] = refusal }
    }

    /// Why the server of `url` was refused, with `url` as the failing URL; `nil` when it wasn't.
    func refusal(of url: URL) -> URLError? {
        guard let host = url.host else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
        guard let refusal = refusals.withLock({ $0[Self.key(host: host, port: port)] }) else { return nil }
        var userInfo = refusal.userInfo
        userInfo[NSURLErrorFailingURLErrorKey] = url
        return URLError(refusal.code, userInfo: userInfo)
    }

    private static func key(host: String, port: Int) -> String { "\(host.lowercased()):\(port)" }
}

// Apple platforms only: Linux `URLSession` doesn't let a delegate evaluate a server's certificate, so
// `URLSessionTransport(configuration:crossOriginSafeHeaders:trust:hosts:)` refuses a policy there. What can be plain
// Swift (the pin match, the refusals, the strictest version) is in `CheckedTrust` and `TrustHosts`, where Linux tests it.
#if canImport(Security) && !canImport(FoundationNetworking)
    import Security

    extension SessionDelegate {
        /// Sets the session's minimum TLS version, the strictest of its policies': it is the session's, not a host's.
        static func require(_ version: TrustPolicy.TLSVersion?, in configuration: URLSessionConfiguration) {
            guard let version else { return }
            configuration.tlsMinimumSupportedProtocolVersion = version == .v1_3 ? .TLSv13 : .TLSv12
        }

        /// Throws when `trust`'s roots or identity can't be read by the Security framework.
        static func check(_ trust: CheckedTrust) throws(WebserviceError) {
            for (index, certificates) in trust.roots.enumerated()
            where anchors(certificates).count != certificates.count {
                throw WebserviceError.unreadableRoot(index: index)
            }
            if let identity = trust.identity, credential(for: identity) == nil {
                throw WebserviceError.unreadableIdentity
            }
        }

        /// Answers a connection's challenges with its host's trust policy: a server's certificate, checked against
        /// the policy's authorities, then the pins; the client identity, when the server asks for one.
        func urlSession(
            _ session: URLSession,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let space = challenge.protectionSpace
            switch (trust?.policy(forHost: space.host), space.authenticationMethod, space.serverTrust) {
            case (let trust?, NSURLAuthenticationMethodServerTrust, let serverTrust?):
                // Recorded before the task fails, so the transport reports why instead of `.cancelled`.
                let refusal = Self.refusal(of: serverTrust, by: trust)
                refusals.record(refusal, host: space.host, port: space.port)
                if refusal == nil {
                    completionHandler(.useCredential, URLCredential(trust: serverTrust))
                } else {
                    completionHandler(.cancelAuthenticationChallenge, nil)
                }
            case (let trust?, NSURLAuthenticationMethodClientCertificate, _):
                let credential = trust.identity.flatMap(Self.credential(for:))
                completionHandler(credential == nil ? .performDefaultHandling : .useCredential, credential)
            default:
                completionHandler(.performDefaultHandling, nil)
            }
        }

        /// Why `trust` refuses the server of `serverTrust`, or `nil` when it accepts it.
        private static func refusal(of serverTrust: SecTrust, by trust: CheckedTrust) -> URLError? {
            let roots = anchors(Array(trust.roots.joined()))
            if !roots.isEmpty || !trust.trustsSystemRoots {
                SecTrustSetAnchorCertificates(serverTrust, roots as CFArray)
                SecTrustSetAnchorCertificatesOnly(serverTrust, !trust.trustsSystemRoots)
            }
            var failure: CFError?
            guard SecTrustEvaluateWithError(serverTrust, &failure) else {
                let reason = failure.map { CFErrorCopyDescription($0) as String } ?? "not trusted"
                return URLError.tlsFailure(
                    .serverCertificateUntrusted, reason: reason,
                    underlying: failure.map { $0 as any Error } ?? URLError(.serverCertificateUntrusted), url: nil)
            }
            // The chain the evaluation verified, leaf first: a pin of any of its keys matches.
            let chain = SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate] ?? []
            return trust.refusal(ofChain: chain.map { SecCertificateCopyData($0) as Data })
        }

        /// The Security framework's certificates of the DER `certificates` it can read.
        private static func anchors(_ certificates: [Data]) -> [SecCertificate] {
            certificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        }

        /// The credential of a PKCS#12 `identity`; `nil` when its password doesn't open it, or for PEM, which the
        /// Security framework makes an identity of only in a keychain.
        private static func credential(for identity: TrustPolicy.ClientIdentity) -> URLCredential? {
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: identity.password] as CFDictionary
            guard !identity.isPEM, SecPKCS12Import(identity.bytes as CFData, options, &items) == errSecSuccess,
                let first = (items as? [[String: Any]])?.first,
                let value = first[kSecImportItemIdentity as String],
                CFGetTypeID(value as AnyObject) == SecIdentityGetTypeID()
            else { return nil }
            let chain = (first[kSecImportItemCertChain as String] as? [SecCertificate]) ?? []
            // The type identifier says it is an identity; the leaf goes with it, the rest of the chain alongside.
            return URLCredential(
                identity: value as! SecIdentity, certificates: Array(chain.dropFirst()), persistence: .forSession)
        }
    }
#endif
