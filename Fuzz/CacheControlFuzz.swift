import Foundation

/// `Cache-Control` parsing: the whole input is the field value.
///
/// Invariants: `max-age` is never negative nor above `Int32.max`, and a directive is only seen when its name is in
/// the value.
func fuzzCacheControl(_ input: inout FuzzInput) {
    let value = String(decoding: input.rest, as: UTF8.self)
    let directives = CacheControl(value)
    let lowercased = value.lowercased()
    if let maxAge = directives.maxAge {
        check((0...Int(Int32.max)).contains(maxAge), "max-age \(maxAge) from \(value.debugDescription)")
        check(lowercased.contains("max-age"), "max-age \(maxAge) without the directive in \(value.debugDescription)")
    }
    check(!directives.noStore || lowercased.contains("no-store"), "no-store from \(value.debugDescription)")
    check(!directives.noCache || lowercased.contains("no-cache"), "no-cache from \(value.debugDescription)")
    if let seconds = CacheControl.seconds(value) {
        check((0...Int(Int32.max)).contains(seconds), "\(seconds) seconds from \(value.debugDescription)")
    }
}
