#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import ResourceKitCore
    import ResourceKitBuiltIns
    internal import ResourceKitSupport
    import NIOCore
    import NIOPosix
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// Creates a transport with clients of its own, configured as ResourceKit's shared one, that applies `trust`
        /// to every server but those `hosts` names, which get theirs: additional or only roots, pinned keys, a minimum
        /// TLS version and a client identity; see <doc:Transports#Trust>.
        ///
        /// A key of `hosts` is a host name or IP address, or `*.` and a name for any one label before it. Pass a
        /// `trust` that trusts nothing, `TrustPolicy(trustsSystemRoots: false)`, to refuse every other host before
        /// connecting. The clients shut down once the transport and its copies are gone.
        ///
        /// ```swift
        /// let transport = try AsyncHTTPClientTransport(
        ///     trust: TrustPolicy(), hosts: ["api.example.com": TrustPolicy(pinnedKeys: [current, backup])])
        /// ```
        ///
        /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` when a pin, a root or an
        ///   identity can't be read, or a key of `hosts` isn't a host.
        public init(trust: TrustPolicy, hosts: [String: TrustPolicy] = [:]) throws(WebserviceError) {
            let checked = try TrustHosts(fallback: trust, hosts: hosts).map { policy throws(WebserviceError) in
                try policy.checked()
            }
            // Every configuration first: a client made before one fails to would be released without its shutdown.
            let configured = try checked.map { trust throws(WebserviceError) in
                (trust, try Self.configuration(applying: trust))
            }
            var clients: [CheckedTrust: HTTPClient] = [:]
            let routes = try configured.map { pair in
                let (trust, configuration) = pair
                let client =
                    clients[trust]
                    ?? HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                clients[trust] = client
                return TrustRoute(client: client, trust: trust)
            }
            let owner = ClientOwner(Array(clients.values))
            self.init(client: routes.fallback.client, routes: routes, owner: owner)
        }

        /// ResourceKit's configuration with `trust` applied.
        private static func configuration(applying trust: CheckedTrust) throws(WebserviceError)
            -> HTTPClient.Configuration
        {
            var tls = TLSConfiguration.makeClientConfiguration()
            var roots: [NIOSSLCertificate] = []
            for (index, certificates) in trust.roots.enumerated() {
                for der in certificates {
                    guard let root = try? NIOSSLCertificate(bytes: [UInt8](der), format: .der) else {
                        throw WebserviceError.unreadableRoot(index: index)
                    }
                    roots.append(root)
                }
            }
            // A root whose key is pinned: BoringSSL anchors every chain at one of them, so the verified chain goes
            // through a pinned key. AsyncHTTPClient shows no more than the leaf of the chain it verified.
            let pinnedRoots = trust.pinnedRoots.compactMap { try? NIOSSLCertificate(bytes: [UInt8]($0), format: .der) }
            if !pinnedRoots.isEmpty {
                tls.trustRoots = .certificates(pinnedRoots)
            } else if !trust.trustsSystemRoots {
                tls.trustRoots = .certificates(roots)
            } else if !roots.isEmpty {
                tls.additionalTrustRoots = [.certificates(roots)]
            }
            switch trust.minimumTLSVersion {
            case .v1_2: tls.minimumTLSVersion = .tlsv12
            case .v1_3: tls.minimumTLSVersion = .tlsv13
            case nil: break
            }
            if let identity = trust.identity {
                let (chain, key) = try Self.chainAndKey(of: identity)
                tls.certificateChain = chain.map { .certificate($0) }
                tls.privateKey = .privateKey(key)
                // Now rather than at the first connection: a key that isn't the certificate's.
                guard (try? NIOSSLContext(configuration: tls)) != nil else { throw WebserviceError.unreadableIdentity }
            }
            var configuration = Self.configuration
            configuration.tlsConfiguration = tls
            if !trust.pins.isEmpty, pinnedRoots.isEmpty {
                // Run on each new connection after its handshake, before any request is written on it.
                let check: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
                    Self.checkPin(of: channel, against: trust)
                }
                configuration.http1_1ConnectionDebugInitializer = check
                configuration.http2ConnectionDebugInitializer = check
            }
            return configuration
        }

        /// The certificate chain and private key in `identity`'s bytes, PKCS#12 or PEM, decoded in memory: the policy
        /// holds the bytes, and no file is read here.
        private static func chainAndKey(of identity: TrustPolicy.ClientIdentity) throws(WebserviceError)
            -> ([NIOSSLCertificate], NIOSSLPrivateKey)
        {
            let password = Array(identity.password.utf8)
            if identity.isPEM {
                guard let pem = identity.pem,
                    let chain = try? pem.certificates.map({ try NIOSSLCertificate(bytes: [UInt8]($0), format: .der) }),
                    let key = try? NIOSSLPrivateKey(
                        bytes: [UInt8](pem.key), format: .pem, passphraseCallback: { $0(password) })
                else { throw WebserviceError.unreadableIdentity }
                return (chain, key)
            }
            guard let bundle = try? NIOSSLPKCS12Bundle(buffer: [UInt8](identity.bytes), passphrase: password),
                !bundle.certificateChain.isEmpty
            else { throw WebserviceError.unreadableIdentity }
            return (bundle.certificateChain, bundle.privateKey)
        }

        /// Succeeds when the server's certificate on `channel` has one of `trust`'s pinned keys; otherwise closes the
        /// connection and fails with ``UnpinnedServer``, which fails the requests waiting for it.
        private static func checkPin(of channel: any Channel, against trust: CheckedTrust) -> EventLoopFuture<Void> {
            channel.eventLoop.submit {
                // No TLS handler (a plain connection) or no certificate: nothing to match.
                let leaf = try? channel.pipeline.syncOperations.nioSSL_peerCertificate()?.toDERBytes()
                guard let leaf, trust.pins(leaf) else {
                    // After AsyncHTTPClient forgot the connection, so its close isn't taken for a lost connection.
                    channel.eventLoop.execute { channel.close(promise: nil) }
                    throw UnpinnedServer(leaf: leaf ?? [])
                }
            }
        }
    }

    /// The client a transport made for a trust policy, and the policy.
    struct TrustRoute: Sendable {
        let client: HTTPClient
        let trust: CheckedTrust
    }

    /// The server's certificate, DER, has none of the pinned keys.
    struct UnpinnedServer: Error {
        let leaf: [UInt8]
    }

    /// Owns the clients a transport made, and shuts them down when the last copy of the transport is gone:
    /// AsyncHTTPClient requires a client to be shut down before it is released.
    final class ClientOwner: Sendable {
        let clients: [HTTPClient]

        init(_ clients: [HTTPClient]) {
            self.clients = clients
        }

        deinit {
            // Doesn't wait: each client finishes shutting down on its own.
            for client in clients { client.shutdown(queue: .global()) { _ in } }
        }
    }
#endif
