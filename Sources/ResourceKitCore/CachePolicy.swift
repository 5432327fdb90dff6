/// How a load uses the web service's ``ResponseCache``: the resource's ``Resource/cachePolicy``.
///
/// The default, ``http``, follows the server's `Cache-Control`; the others let the caller trade freshness for working
/// offline. The rules, and how each policy shows in ``WebserviceEvent/Kind/cacheHit(policy:staleness:)``, are in
/// <doc:WorkingOffline>.
///
/// ```swift
/// var feed = Episode.all
/// feed.cachePolicy = .networkElseStored  // the latest when online, the last one seen when not
/// ```
public enum CachePolicy: Sendable, Hashable {
    /// HTTP's rules: a fresh response answers, a stale one is revalidated, and a stale one answers while the server's
    /// `stale-while-revalidate` or, after a failure, `stale-if-error` allows (RFC 5861).
    case http
    /// Asks the server every time: a stored response answers only after a `304 Not Modified` confirms it.
    case revalidate
    /// A stored response whatever its age; the network only when nothing is stored.
    case storedElseNetwork
    /// The network first; a stored response, whatever its age, when no response arrives or the server answers 500,
    /// 502, 503 or 504.
    case networkElseStored
    /// A stored response only, whatever its age; never the network. Without one, the load fails with
    /// ``WebserviceError/Reason/notStored``.
    case storedOnly
}
