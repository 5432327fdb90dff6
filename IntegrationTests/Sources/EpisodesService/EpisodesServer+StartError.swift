extension EpisodesServer {
    /// Why ``EpisodesServer/start(host:port:configure:)`` returned no server.
    public enum StartError: Error, Sendable, CustomStringConvertible {
        /// The host can't be part of a URL.
        case invalidHost(String)
        /// The server stopped before it was listening.
        case stoppedBeforeListening

        /// A one-line account of the failure.
        public var description: String {
            switch self {
            case .invalidHost(let host): "The host \"\(host)\" can't be part of a URL"
            case .stoppedBeforeListening: "The Episodes server stopped before it was listening"
            }
        }
    }
}
