import Foundation
import ResourceKit  // not `@testable`: a storage of the app's, as an app writes it
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``ResponseCache`` over a storage of the app's: a store that several caches (a fleet's servers) share.
@Suite struct CacheStorageTests {
    private static let url = URL(string: "https://api.example.com/feed")!

    /// A store the caches of several web services share, as a fleet's would, with what it was asked to keep.
    final class FleetStore: Sendable {
        let entries = Mutex<[ResponseCache.Key: ResponseCache.Entry]>([:])
        let inserted = Mutex<[ResponseCache.Key]>([])
    }

    /// One cache's view of the fleet's store.
    struct FleetStorage: CacheStorage {
        let store: FleetStore

        var byteCount: Int { store.entries.withLock { $0.values.reduce(0) { $0 + $1.response.body.count } } }
        var count: Int { store.entries.withLock { $0.count } }

        func entry(for key: ResponseCache.Key) -> ResponseCache.Entry? { store.entries.withLock { $0[key] } }

        func insert(_ entry: ResponseCache.Entry, for key: ResponseCache.Key) {
            store.inserted.withLock { $0.append(key) }
            store.entries.withLock { $0[key] = entry }
        }

        func remove(_ key: ResponseCache.Key) { store.entries.withLock { $0[key] = nil } }
        func removeAll(url: String) { store.entries.withLock { $0 = $0.filter { $0.key.url != url } } }
        func removeAll() throws { store.entries.withLock { $0.removeAll() } }
    }

    /// A server that answers `<field value> <number of requests it got>`, cacheable for a minute, with `field` added
    /// to each request as a session adds its configured fields.
    struct Server: Transport {
        var field: HeaderField?
        var cacheControl = "max-age=60"
        let counter = Counter()
        var requests: Int { counter.value.withLock { $0 } }

        final class Counter: Sendable {
            let value = Mutex(0)
        }

        func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
            var sent = request
            if let field { sent.headerFields.append(field) }
            let number = counter.value.withLock { count in
                count += 1
                return count
            }
            var response = Response(statusCode: 200, headers: ["Cache-Control": cacheControl], url: request.url)
            response.request = sent
            return (response, ResponseBody(Data("\(field?.value ?? "-") \(number)".utf8)))
        }
    }

    private let resource = Resource<String>(url: url, textEncoding: .utf8)

    @Test func aStoreTheAppProvidesAnswersEveryCacheThatSharesIt() async throws {
        let store = FleetStore()
        let (first, second) = (Server(), Server())
        let one = Webservice(transport: first, cache: ResponseCache(storage: FleetStorage(store: store)))
        let other = Webservice(transport: second, cache: ResponseCache(storage: FleetStorage(store: store)))
        #expect(try await one.load(resource) == "- 1")
        #expect(try await other.load(resource) == "- 1")
        #expect(second.requests == 0)
        #expect(store.entries.withLock { $0.count } == 1)

        try await ResponseCache(storage: FleetStorage(store: store)).removeAll()
        #expect(try await other.load(resource) == "- 1")
        #expect(second.requests == 1)
    }

    @Test func aResponseKeptForOneWebServiceNeverReachesTheAppsStore() async throws {
        let store = FleetStore()
        let alice = Server(field: HeaderField(name: "Authorization", value: "alice"))
        let service = Webservice(transport: alice, cache: ResponseCache(storage: FleetStorage(store: store)))
        #expect(try await service.load(resource) == "alice 1")
        // Kept, in memory, for this web service alone.
        #expect(try await service.load(resource) == "alice 1")
        #expect(store.inserted.withLock { $0.isEmpty })
        #expect(
            try await Webservice(transport: Server(), cache: ResponseCache(storage: FleetStorage(store: store)))
                .load(resource) == "- 1")
        #expect(store.inserted.withLock { $0.map(\.service) }.allSatisfy { $0 == nil })
    }

    @Test(arguments: [nil, "mine=1"])
    func aResponseToARequestTheTransportAddedACookieToIsNeverStored(own: String?) async throws {
        let store = FleetStore()
        let jar = Server(field: HeaderField(name: "Cookie", value: "sid=A"))
        let cache = ResponseCache(storage: FleetStorage(store: store))
        let service = Webservice(transport: jar, cache: cache)
        var resource = resource
        if let own { resource.headers = ["Cookie": own] }
        #expect(try await service.load(resource) == "sid=A 1")
        // Neither for this web service nor for any: a cookie jar changes at any time.
        #expect(try await service.load(resource) == "sid=A 2")
        #expect(await cache.count == 0)
        #expect(store.inserted.withLock { $0.isEmpty })
    }

    @Test func aResponseToCredentialsOrAPrivateOneNeverReachesTheAppsStore() async throws {
        let store = FleetStore()
        let signedIn = Webservice(
            transport: Server(), cache: ResponseCache(storage: FleetStorage(store: store)),
            middleware: [Authentication(for: [Self.url]) { _ in "Bearer s3cret" }])
        #expect(try await signedIn.load(resource) == "- 1")
        // Kept, in memory, for the loads with this credential.
        #expect(try await signedIn.load(resource) == "- 1")
        let privately = Webservice(
            transport: Server(cacheControl: "private, max-age=60"),
            cache: ResponseCache(storage: FleetStorage(store: store)))
        #expect(try await privately.load(resource) == "- 1")
        #expect(try await privately.load(resource) == "- 1")
        #expect(store.inserted.withLock { $0.isEmpty })
    }
}
