import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The redirect rule: the first line is the original request's URL (empty: no original), the second the redirect's
/// target, then `name: value` header fields of the redirected request.
///
/// Invariants: a redirect on the same origin keeps every field; any other keeps exactly the safe fields (the
/// allowlist, plus `X-Extra` declared safe); whether a name is safe doesn't depend on its letter case.
func fuzzRedirect(_ input: inout FuzzInput) {
    let original = URL(string: input.line()).map { URLRequest(url: $0) }
    guard let target = URL(string: input.line()) else { return }
    var request = URLRequest(url: target)
    for field in input.headerFields() {
        request.setValue(field.value, forHTTPHeaderField: field.name)
        if field.name.allSatisfy(\.isASCII) {
            let name = field.name
            check(
                isSafeHeader(name) == isSafeHeader(name.uppercased()),
                "\(name.debugDescription) is safe in one letter case only")
        }
    }
    let before = request.allHTTPHeaderFields ?? [:]
    let extra: Set<String> = ["x-extra"]
    let after = request.redirected(from: original, extraSafeHeaders: extra).allHTTPHeaderFields ?? [:]
    if let source = original?.url, sameOrigin(source, target) {
        check(after == before, "a same-origin redirect changed the fields \(before) to \(after)")
    } else {
        check(after == before.filter { isSafeHeader($0.key, extra: extra) }, "kept \(after) of \(before)")
    }
}

/// Same scheme, host and port, spelled out independently of the library's rule.
private func sameOrigin(_ first: URL, _ second: URL) -> Bool {
    func origin(_ url: URL) -> [String?] {
        let scheme = url.scheme?.lowercased()
        let port = url.port ?? (scheme == "http" ? 80 : scheme == "https" ? 443 : nil)
        return [scheme, url.host?.lowercased(), port.map(String.init)]
    }
    return origin(first) == origin(second)
}
