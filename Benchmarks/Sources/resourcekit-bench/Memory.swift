import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Peak memory of one load, each in a fresh child process so no variant inherits another's heap.
enum Memory {
    static let target = 1.10

    /// A client and a variant of it, as the child process names them.
    struct Variant: Sendable {
        var client, kind, name: String
    }

    static let variants = [
        Variant(client: "urlsession", kind: "library", name: "Webservice().load"),
        Variant(client: "urlsession", kind: "raw", name: "URLSession.shared (raw)"),
        Variant(client: "ahc", kind: "library", name: "Webservice(transport: AHC).load"),
        Variant(client: "ahc", kind: "raw", name: "HTTPClient.execute + collect (raw)"),
    ]

    static func run(options: Options, report: Report) async throws {
        report.heading("Peak memory of one load, each in a fresh process (median of \(options.memoryRepeats))")
        print(
            """
               Each child warms its client up with one small.json load, trims the heap, reads VmRSS (the baseline),
               resets the high-water mark (writes 5 to /proc/self/clear_refs), loads once while keeping the result,
               and reads VmHWM. Peak = VmHWM − baseline.
            """)
        let fixture = try await bigFixture(options: options)
        var models: [Double] = []
        var decodePeaks: [Double] = []
        var estimate = 0.0
        for _ in 0..<options.memoryRepeats {
            let output = try Subprocess.run(try executable(), arguments: ["model-size", fixture.path])
            models.append(try field("retained_bytes", in: output))
            decodePeaks.append(try field("decode_peak_bytes", in: output))
            estimate = try field("estimate_bytes", in: output)
        }
        let model = Samples(values: models).median
        let decodePeak = Samples(values: decodePeaks).median
        print(
            """
               decoded model of big.json: \(Format.megabytes(model)) of resident memory kept after decoding from memory \
            and dropping the bytes (median of \(models.count)); layout estimate \(Format.megabytes(estimate))
               JSONDecoder alone, decoding big.json already in memory, peaks \(Format.megabytes(decodePeak)) above \
            the bytes (model \(Format.megabytes(model)) + \(Format.megabytes(decodePeak - model)) of its own working \
            memory); body + that peak is the least a decoded load can reach with JSONDecoder (column ÷ body + decoder)
            """)

        for endpoint in [Endpoint.big, .huge] {
            let body = Double(try await ServerFigures.size(of: endpoint, options: options))
            let decoded = endpoint == .big
            let ideal = decoded ? body + model : body
            // The verdict's yardstick: no load can peak below the body plus JSONDecoder's own peak, as no decoder in
            // Foundation reads a body while it arrives.
            let least = decoded ? body + decodePeak : body
            let leastName = decoded ? "body + decoder" : "body"
            var peaks: [String: [Double]] = [:]
            for repeat_ in 0..<options.memoryRepeats {
                let order = repeat_.isMultiple(of: 2) ? variants : variants.reversed()
                for variant in order {
                    let output = try Subprocess.run(
                        try executable(),
                        arguments: [
                            "memory", variant.client, variant.kind, endpoint.rawValue, options.baseURL.absoluteString,
                        ])
                    peaks[variant.client + variant.kind, default: []].append(
                        try field("peak_bytes", in: output) - field("baseline_bytes", in: output))
                }
            }
            let idealName = decoded ? "body + model" : "body"
            print(
                "-- \(endpoint.rawValue): \(decoded ? "decoded to [Item]" : "as Resource<Data>, no decode"), "
                    + "body \(Format.megabytes(body)), ideal peak = \(idealName) = \(Format.megabytes(ideal)) --")
            var rows: [[String]] = []
            for variant in variants {
                let samples = Samples(values: peaks[variant.client + variant.kind] ?? [])
                let ratio = samples.median / least
                rows.append([
                    variant.name, Format.megabytes(samples.median),
                    Format.megabytes(samples.min) + " – " + Format.megabytes(samples.max),
                    Format.number(samples.median / body, decimals: 2),
                    Format.number(samples.median / ideal, decimals: 2),
                    decoded ? Format.number(ratio, decimals: 2) : "",
                    ratio > target ? "FLAG > \(Format.number(target, decimals: 2))" : "ok",
                ])
                report.addSummaryLine(
                    SummaryLine(
                        section: "Memory", shape: "\(endpoint.rawValue) \(variant.name)",
                        definition: "peak ÷ (\(leastName))", ratio: ratio,
                        target: "≤ " + Format.number(target, decimals: 2), passes: ratio <= target,
                        kind: variant.kind == "library" ? .verdict : .baseline))
            }
            Table.print(
                header: [
                    "variant", "peak − baseline", "spread (min – max)", "÷ body", "÷ ideal", "÷ body + decoder",
                    "result",
                ],
                rows: rows)
            for client in ["urlsession", "ahc"] {
                let library = Samples(values: peaks[client + "library"] ?? []).median
                let raw = Samples(values: peaks[client + "raw"] ?? []).median
                let name = client == "ahc" ? "AsyncHTTPClient" : "URLSession"
                print("   \(name): library peak ÷ raw peak = \(Format.number(library / raw, decimals: 3))")
                report.addSummaryLine(
                    SummaryLine(
                        section: "Memory", shape: "\(endpoint.rawValue) \(name)", definition: "library ÷ raw peak",
                        ratio: library / raw, target: "≤ " + Format.number(target, decimals: 2),
                        passes: library / raw <= target))
            }
        }
    }

    /// The path of big.json on disk: from `--fixtures`, or downloaded into a temporary file.
    private static func bigFixture(options: Options) async throws -> URL {
        if let fixtures = options.fixtures {
            return fixtures.appendingPathComponent(Endpoint.big.rawValue)
        }
        let data = try await download(.big, options: options)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-bench-big.json")
        try data.write(to: file)
        return file
    }

    /// This executable, to run as a child.
    static func executable() throws -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        guard let url = Bundle.main.executableURL else { throw BenchError("can't find this executable") }
        return url
    }

    /// A `key=value` number from a child's output.
    private static func field(_ key: String, in output: String) throws -> Double {
        for word in output.split(whereSeparator: \.isWhitespace) where word.hasPrefix(key + "=") {
            if let value = Double(word.dropFirst(key.count + 1)) { return value }
        }
        throw BenchError("the child process printed no \(key):\n\(output)")
    }
}

/// Downloads an endpoint's body with URLSession.
func download(_ endpoint: Endpoint, options: Options) async throws -> Data {
    let (data, response) = try await URLSession.shared.data(from: options.url(endpoint.rawValue))
    guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
        throw BenchError("GET \(endpoint.rawValue) failed: \(response)")
    }
    return data
}
