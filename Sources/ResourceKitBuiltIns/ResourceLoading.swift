import ResourceKitCore

internal import ResourceKitSupport
/// Loads resources: ``Webservice``, or a fake that answers from fixtures in your tests.
///
/// Let a view model take `any ResourceLoading`, and its tests can hand it a loader that runs the resource's own parse
/// on fixture bytes with ``Resource/parse(_:)``; see <doc:TestingParses>.
///
/// ```swift
/// struct FixtureLoader: ResourceLoading {
///     var body: Data
///     func load<A>(_ resource: Resource<A>) async throws -> A { try resource.parse(body) }
/// }
/// ```
public protocol ResourceLoading: Sendable {
    /// Loads a resource and returns its model.
    func load<A>(_ resource: Resource<A>) async throws -> A
}

extension Webservice: ResourceLoading {}
