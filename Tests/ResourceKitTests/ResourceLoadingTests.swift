import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fake loader that answers each URL with fixture bytes, run through the resource's own parse.
private struct FixtureLoader: ResourceLoading {
    var fixtures: [URL: Data]
    let requests = Notes<URLRequest>()

    func load<A>(_ resource: Resource<A>) async throws -> A {
        await requests.append(URLRequest(resource: resource))
        guard let body = fixtures[resource.url] else { throw URLError(.fileDoesNotExist) }
        return try resource.parse(body)
    }
}

/// A view model as an app would write it: it loads through `any ResourceLoading`, a `Webservice` in the app.
@MainActor private final class EpisodeList {
    private let loader: any ResourceLoading
    private(set) var titles: [String] = []
    private(set) var failure: String?

    init(loader: any ResourceLoading = Webservice()) {
        self.loader = loader
    }

    func refresh() async {
        do {
            titles = try await loader.load(Episode.all).map(\.title)
            failure = nil
        } catch {
            failure = "Couldn't load the episodes."
        }
    }
}

@Suite struct ResourceLoadingTests {
    private let episodesURL = baseURL.appendingPathComponent("episodes")

    @Test @MainActor func viewModelShowsWhatTheLoaderReturns() async throws {
        let loader = FixtureLoader(fixtures: [episodesURL: try fixture("episodes.json")])
        let list = EpisodeList(loader: loader)
        await list.refresh()
        #expect(list.titles == ["Networking", "Networking: POST Requests", "Loading View Controllers"])
        #expect(list.failure == nil)
        #expect(await loader.requests.all.map(\.httpMethod) == ["GET"])
        #expect(await loader.requests.all.first?.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test @MainActor func viewModelReportsABodyItCantParse() async throws {
        let list = EpisodeList(loader: FixtureLoader(fixtures: [episodesURL: try fixture("episodes-invalid.json")]))
        await list.refresh()
        #expect(list.titles.isEmpty)
        #expect(list.failure == "Couldn't load the episodes.")
    }

    @Test func webserviceIsAResourceLoading() async throws {
        let loader: any ResourceLoading = Webservice(
            transport: StubTransport.answering(.status(200, body: try fixture("episodes.json"))))
        #expect(try await loader.load(Episode.all).count == 3)
        #expect(try await loader.load(Resource<Data>(url: episodesURL)) == fixture("episodes.json"))
    }
}
