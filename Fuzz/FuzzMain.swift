import Foundation

/// The fuzz targets by name.
///
/// All are compiled into one executable, so the library is compiled once; `Scripts/fuzz.sh` links it under each
/// target's name, and the name it runs under picks the target.
let fuzzTargets: [String: @Sendable (inout FuzzInput) -> Void] = [
    "charset": fuzzCharset,
    "cache-control": fuzzCacheControl,
    "coding-path": fuzzCodingPath,
    "payload": fuzzPayload,
    "lenient-array": fuzzLenientArray,
    "redirect": fuzzRedirect,
    "error-description": fuzzErrorDescription,
    "redaction": fuzzRedaction,
    "property-list": fuzzPropertyList,
    "link-header": fuzzLinkHeader,
    "multipart": fuzzMultipart,
    "curl-command": fuzzCURLCommand,
    "content-range": fuzzContentRange,
    "cache-file": fuzzCacheFile,
    "certificate": fuzzCertificate,
    "stream-framing": fuzzStreamFraming,
    "set-cookie": fuzzSetCookie,
    "cookie-jar": fuzzCookieJar,
]

/// The target this executable runs: the base name it was started under, or `FUZZ_TARGET`.
let fuzzTarget: @Sendable (inout FuzzInput) -> Void = {
    let name =
        ProcessInfo.processInfo.environment["FUZZ_TARGET"]
        ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
    guard let target = fuzzTargets[name] else {
        let known = fuzzTargets.keys.sorted().joined(separator: ", ")
        FileHandle.standardError.write(Data("unknown fuzz target \"\(name)\"; run as one of: \(known)\n".utf8))
        exit(2)
    }
    return target
}()

/// libFuzzer's entry point: runs the target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    fuzzTarget(&input)
    return 0
}
