/// Loads resources: ``Webservice``, or a fake that answers from fixtures in your tests.
///
/// Let the code that loads — a view model, a store — take `any ResourceLoading` instead of a ``Webservice``, and
/// its tests can hand it a loader that never touches the network. A fake usually answers by running the resource's
/// own ``Resource/parse`` on fixture bytes, so the test still exercises the real parse:
///
/// ```swift
/// struct FixtureLoader: ResourceLoading {
///     var fixtures: [URL: Data]
///
///     func load<A>(_ resource: Resource<A>) async throws -> A {
///         guard let body = fixtures[resource.url] else { throw URLError(.fileDoesNotExist) }
///         return try resource.parse(body)
///     }
/// }
///
/// @MainActor final class EpisodeList {
///     let loader: any ResourceLoading
///     var titles: [String] = []
///     init(loader: any ResourceLoading = Webservice()) { self.loader = loader }
///     func refresh() async throws { titles = try await loader.load(Episode.all).map(\.title) }
/// }
/// ```
///
/// The protocol only names ``Webservice/load(_:)``; `Webservice` stays the one place ResourceKit goes to the network.
public protocol ResourceLoading: Sendable {
    /// Loads a resource and returns its model.
    ///
    /// - Parameter resource: The resource to load.
    /// - Returns: The parsed model.
    /// - Throws: Whatever stopped the load; ``Webservice/load(_:)`` documents the errors of a real load.
    func load<A>(_ resource: Resource<A>) async throws -> A
}

extension Webservice: ResourceLoading {}
