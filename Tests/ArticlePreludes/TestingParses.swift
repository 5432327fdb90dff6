import ResourceKit

/// The view model of <doc:LoadingResources#Loaders-for-view-models>.
@MainActor public final class PodcastList {
    /// Loads the podcasts.
    public let loader: any ResourceLoading
    /// The podcasts' names.
    public var names: [String] = []

    /// A list that loads with `loader`.
    public init(loader: any ResourceLoading = Webservice()) { self.loader = loader }

    /// Loads the names again.
    public func refresh() async throws { names = try await loader.load(Podcast.all).map(\.name) }
}
