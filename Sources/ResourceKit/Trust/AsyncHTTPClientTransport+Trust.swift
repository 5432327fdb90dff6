#if AsyncHTTPClient
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL

    extension AsyncHTTPClientTransport {
        /// Creates a transport with a client of its own, configured as ResourceKit's shared one, that applies
        /// `trust`: its additional roots, pinned keys and client identity; see <doc:Transports#Trust>.
        ///
        /// The client shuts down once the transport and its copies are gone.
        ///
        /// ```swift
        /// let transport = try AsyncHTTPClientTransport(trust: TrustPolicy(pinnedKeys: [current, backup]))
        /// ```
        ///
        /// - Throws: ``WebserviceError/Reason/unusableTrustPolicy(argument:index:)`` when a pin, a root or the
        ///   identity can't be read.
        public init(trust: TrustPolicy) throws(WebserviceError) {
            let checked = try trust.checked()
            var tls = TLSConfiguration.makeClientConfiguration()
            var roots: [NIOSSLCertificate] = []
            for (index, certificates) in checked.roots.enumerated() {
                for der in certificates {
                    guard let root = try? NIOSSLCertificate(bytes: [UInt8](der), format: .der) else {
                        throw WebserviceError.unreadableRoot(index: index)
                    }
                    roots.append(root)
                }
            }
            if !roots.isEmpty { tls.additionalTrustRoots = [.certificates(roots)] }
            if let identity = checked.identity {
                guard
                    let bundle = try? NIOSSLPKCS12Bundle(
                        buffer: [UInt8](identity.pkcs12), passphrase: Array(identity.password.utf8)),
                    !bundle.certificateChain.isEmpty
                else { throw WebserviceError.unreadableIdentity }
                tls.certificateChain = bundle.certificateChain.map { .certificate($0) }
                tls.privateKey = .privateKey(bundle.privateKey)
            }
            var configuration = Self.configuration
            configuration.tlsConfiguration = tls
            if !checked.pins.isEmpty {
                // Run on each new connection after its handshake, before any request is written on it.
                let check: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
                    Self.checkPin(of: channel, against: checked)
                }
                configuration.http1_1ConnectionDebugInitializer = check
                configuration.http2ConnectionDebugInitializer = check
            }
            let owner = ClientOwner(
                HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration))
            self.init(client: owner.client, pins: checked.pins, owner: owner)
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

    /// The server's certificate, DER, has none of the pinned keys.
    struct UnpinnedServer: Error {
        let leaf: [UInt8]
    }

    /// Owns a client a transport made, and shuts it down when the last copy of the transport is gone: AsyncHTTPClient
    /// requires a client to be shut down before it is released.
    final class ClientOwner: Sendable {
        let client: HTTPClient

        init(_ client: HTTPClient) {
            self.client = client
        }

        deinit {
            // Doesn't wait: the client finishes shutting down on its own.
            client.shutdown(queue: .global()) { _ in }
        }
    }
#endif
