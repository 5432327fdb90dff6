import Foundation

/// `Cache-Control` parsing: the whole input is the field value.
///
/// Invariants: `max-age`, `stale-while-revalidate` and `stale-if-error` are never negative nor above `Int32.max`, a
/// directive is only seen when its name is in the value, and no stale answer is allowed with `must-revalidate` or
/// `no-cache`.
func fuzzCacheControl(_ input: inout FuzzInput) {
    let value = String(decoding: input.rest, as: UTF8.self)
    let directives = CacheControl(value)
    let lowercased = value.lowercased()
    if let maxAge = directives.maxAge {
        check((0...Int(Int32.max)).contains(maxAge), "max-age \(maxAge) from \(value.debugDescription)")
        check(lowercased.contains("max-age"), "max-age \(maxAge) without the directive in \(value.debugDescription)")
    }
    for (name, seconds) in [
        ("stale-while-revalidate", directives.staleWhileRevalidate), ("stale-if-error", directives.staleIfError),
    ] {
        guard let seconds else { continue }
        check((0...Int(Int32.max)).contains(seconds), "\(name) \(seconds) from \(value.debugDescription)")
        check(lowercased.contains(name), "\(name) without the directive in \(value.debugDescription)")
        check(!directives.mustRevalidate && !directives.noCache, "\(name) despite must-revalidate or no-cache")
    }
    check(!directives.noStore || lowercased.contains("no-store"), "no-store from \(value.debugDescription)")
    check(!directives.noCache || lowercased.contains("no-cache"), "no-cache from \(value.debugDescription)")
    if let seconds = CacheControl.seconds(value) {
        check((0...Int(Int32.max)).contains(seconds), "\(seconds) seconds from \(value.debugDescription)")
    }
}
