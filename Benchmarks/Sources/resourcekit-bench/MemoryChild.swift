import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The child processes of ``Memory``: one load, or one decode of the fixture, measured from /proc/self/status.
enum MemoryChild {
    static let usage = """
        usage: resourcekit-bench memory urlsession|ahc library|raw big.json|huge.bin BASE_URL
               resourcekit-bench model-size FILE
        """

    /// Loads one endpoint with one variant and prints `baseline_bytes=… peak_bytes=… after_bytes=…`.
    static func run(arguments: [String]) async throws {
        guard arguments.count == 4, ["library", "raw"].contains(arguments[1]),
            let endpoint = Endpoint(rawValue: arguments[2])
        else { throw BenchError(usage) }
        let options = try Options(arguments: [arguments[3]])
        try await ClientPair.with(arguments[0], options: options) { pair in
            let load = arguments[1] == "library" ? pair.library : pair.raw
            _ = try await load(.small)  // opens the connection and pages the code in
            trimHeap()
            let baseline = try status("VmRSS")
            try resetPeak()
            let loaded = try await load(endpoint)
            let peak = try status("VmHWM")
            let after = try status("VmRSS")
            print("baseline_bytes=\(baseline) peak_bytes=\(peak) after_bytes=\(after) count=\(loaded.count)")
            withExtendedLifetime(loaded) {}
        }
    }

    /// Decodes `FILE` from memory, drops the bytes, and prints the resident memory the decoded model keeps
    /// (`retained_bytes`) next to an estimate from its layout (`estimate_bytes`), and how far above the bytes in
    /// memory the decode alone peaked (`decode_peak_bytes`).
    static func modelSize(arguments: [String]) throws {
        guard arguments.count == 1 else { throw BenchError(usage) }
        let file = URL(fileURLWithPath: arguments[0])
        let decoder = JSONDecoder.items()
        _ = try decoder.decode([Item].self, from: try Data(contentsOf: file))  // warm-up; all of it is freed again
        trimHeap()
        let before = try status("VmRSS")
        var decodePeak = 0
        let items = try {
            let data = try Data(contentsOf: file)
            let loaded = try status("VmRSS")
            try resetPeak()
            let items = try decoder.decode([Item].self, from: data)
            decodePeak = try status("VmHWM") - loaded
            return items
        }()
        trimHeap()
        let after = try status("VmRSS")
        print(
            "retained_bytes=\(after - before) estimate_bytes=\(layoutEstimate(items)) decode_peak_bytes=\(decodePeak) "
                + "items=\(items.count)")
        withExtendedLifetime(items) {}
    }

    /// The heap the array and its strings take: the array's buffer, and a native string's storage (a 32-byte
    /// header, the UTF-8 bytes and a terminator) for every string too long to be stored inline (over 15 bytes), each
    /// rounded up to glibc's 16-byte chunks with 8 bytes of overhead.
    private static func layoutEstimate(_ items: [Item]) -> Int {
        func chunk(_ bytes: Int) -> Int { max(32, (bytes + 8 + 15) / 16 * 16) }
        func string(_ text: String) -> Int { text.utf8.count > 15 ? chunk(32 + text.utf8.count + 1) : 0 }
        var total = chunk(32 + items.count * MemoryLayout<Item>.stride)
        for item in items {
            total += string(item.title) + string(item.synopsis) + string(item.collection)
        }
        return total
    }

    /// A field of /proc/self/status, such as `VmRSS`, in bytes.
    static func status(_ name: String) throws -> Int {
        let text = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let parts = line.split(whereSeparator: \.isWhitespace)
            if parts.count >= 3, parts[2] == "kB", let kilobytes = Int(parts[1]) { return kilobytes * 1024 }
        }
        throw BenchError("no \(name) in /proc/self/status: this measurement needs Linux")
    }

    /// Resets the peak resident set size (VmHWM) to the current one.
    static func resetPeak() throws {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else {
            throw BenchError("can't open /proc/self/clear_refs: this measurement needs Linux")
        }
        try handle.write(contentsOf: Data("5".utf8))
        try handle.close()
    }

    /// Returns the heap's free memory to the system, so the baseline doesn't count memory the load could reuse.
    static func trimHeap() {
        #if canImport(Glibc)
            // glibc's malloc_trim, looked up at run time: the Glibc module doesn't import <malloc.h>.
            typealias MallocTrim = @convention(c) (Int) -> Int32
            if let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") {
                _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
            }
        #endif
    }
}
