#if canImport(Security) && !canImport(FoundationNetworking)
    import Foundation
    import Security

    // Apple platforms only: Linux `URLSession` doesn't let a delegate evaluate a server's certificate, so
    // `URLSessionTransport(configuration:crossOriginSafeHeaders:trust:)` refuses a policy there.

    extension SessionDelegate {
        /// Throws when `trust`'s roots or identity can't be read by the Security framework.
        static func check(_ trust: CheckedTrust) throws(TrustPolicyError) {
            for (index, certificates) in trust.roots.enumerated()
            where anchors(certificates).count != certificates.count {
                throw TrustPolicyError(.unreadableRoot(index: index))
            }
            if let identity = trust.identity, credential(for: identity) == nil {
                throw TrustPolicyError(.unreadableIdentity)
            }
        }

        /// Answers a connection's challenges with the trust policy: a server's certificate, checked against the
        /// system's and the additional roots, then the pins; the client identity, when the server asks for one.
        func urlSession(
            _ session: URLSession,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            let space = challenge.protectionSpace
            guard let trust else { return completionHandler(.performDefaultHandling, nil) }
            switch space.authenticationMethod {
            case NSURLAuthenticationMethodServerTrust:
                guard let serverTrust = space.serverTrust else {
                    return completionHandler(.performDefaultHandling, nil)
                }
                let server = TrustRefusals.key(host: space.host, port: space.port)
                guard let refusal = Self.refusal(of: serverTrust, by: trust) else {
                    Task { [refusals] in await refusals.forget(server) }
                    return completionHandler(.useCredential, URLCredential(trust: serverTrust))
                }
                // Recorded before the task fails, so the transport reports why instead of `.cancelled`.
                Task { [refusals] in
                    await refusals.record(refusal, for: server)
                    completionHandler(.cancelAuthenticationChallenge, nil)
                }
            case NSURLAuthenticationMethodClientCertificate:
                guard let identity = trust.identity, let credential = Self.credential(for: identity) else {
                    return completionHandler(.performDefaultHandling, nil)
                }
                completionHandler(.useCredential, credential)
            default:
                completionHandler(.performDefaultHandling, nil)
            }
        }

        /// Why `trust` refuses the server of `serverTrust`, or `nil` when it accepts it.
        private static func refusal(of serverTrust: SecTrust, by trust: CheckedTrust) -> URLError? {
            let roots = anchors(trust.roots.flatMap { $0 })
            if !roots.isEmpty {
                SecTrustSetAnchorCertificates(serverTrust, roots as CFArray)
                SecTrustSetAnchorCertificatesOnly(serverTrust, false)  // The system's roots too.
            }
            var failure: CFError?
            guard SecTrustEvaluateWithError(serverTrust, &failure) else {
                let reason = failure.map { CFErrorCopyDescription($0) as String } ?? "not trusted"
                return URLError.tlsFailure(
                    .serverCertificateUntrusted, reason: reason,
                    underlying: failure.map { $0 as any Error } ?? URLError(.serverCertificateUntrusted), url: nil)
            }
            guard let chain = SecTrustCopyCertificateChain(serverTrust) as? [SecCertificate], let leaf = chain.first
            else { return CheckedTrust.unpinned(Data(), url: nil) }
            let der = SecCertificateCopyData(leaf) as Data
            return trust.pins(der) ? nil : CheckedTrust.unpinned(der, url: nil)
        }

        /// The Security framework's certificates of the DER `certificates` it can read.
        private static func anchors(_ certificates: [Data]) -> [SecCertificate] {
            certificates.compactMap { SecCertificateCreateWithData(nil, $0 as CFData) }
        }

        /// The credential of `identity`'s PKCS#12 archive, or `nil` when it can't be opened with its password.
        private static func credential(for identity: TrustPolicy.ClientIdentity) -> URLCredential? {
            var items: CFArray?
            let options = [kSecImportExportPassphrase as String: identity.password] as CFDictionary
            guard SecPKCS12Import(identity.pkcs12 as CFData, options, &items) == errSecSuccess,
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

    /// The servers a session's trust policy refused, by host and port, until one is accepted again.
    actor TrustRefusals {
        private var refusals: [String: URLError] = [:]

        /// The key of a server.
        static func key(host: String, port: Int) -> String { "\(host.lowercased()):\(port)" }

        func record(_ refusal: URLError, for server: String) {
            refusals[server] = refusal
        }

        func forget(_ server: String) {
            refusals[server] = nil
        }

        /// Why the server of `url` was refused, with `url` as the failing URL; `nil` when it wasn't.
        func refusal(of url: URL) -> URLError? {
            guard let host = url.host else { return nil }
            let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
            guard let refusal = refusals[Self.key(host: host, port: port)] else { return nil }
            var userInfo = refusal.userInfo
            userInfo[NSURLErrorFailingURLErrorKey] = url
            return URLError(refusal.code, userInfo: userInfo)
        }
    }
#endif
