import Foundation
import ResourceKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// 10 000 requests, 64 in flight, with each transport: every response matched to its request, none lost,
/// and resident memory reported before and after.
extension MemoryHungryTests {
    @Suite(.timeLimit(.minutes(3))) struct LoadTests {
        struct Echo: Decodable, Equatable {
            var id: String
        }

        @Test(arguments: TransportKind.allCases)
        func tenThousandRequestsSixtyFourInFlightAllMatched(kind: TransportKind) async throws {
            try await withServer { base in
                let total = 10_000
                let inFlight = 64
                let webservice = kind.webservice()
                // Warm up: open the connections and let the allocator settle before measuring memory.
                _ = try await load(webservice, count: 256, inFlight: inFlight, base: base)
                let residentBefore = residentMemory()

                // Two halves, so a leak shows as growth in the second half too, not only as a warm-up plateau.
                let start = ContinuousClock.now
                var results = try await load(webservice, count: total / 2, inFlight: inFlight, base: base)
                let residentHalfway = residentMemory()
                results += try await load(webservice, count: total / 2, inFlight: inFlight, base: base)
                let elapsed = ContinuousClock.now - start
                let residentAfter = residentMemory()

                let mismatched = results.filter { $0.asked != $0.answered }.count
                let lost = total - results.count
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let memory = [residentBefore, residentHalfway, residentAfter].map { $0.map(megabytes) ?? "?" }
                print(
                    """
                    Load test: \(total) requests, \(inFlight) in flight, \(String(format: "%.2f", seconds)) s, \
                    \(Int(Double(total) / seconds)) requests/s, lost \(lost), mismatched \(mismatched), \
                    resident memory \(memory[0]) before, \(memory[1]) halfway, \(memory[2]) after
                    """)
                #expect(lost == 0)
                #expect(mismatched == 0)
                #expect(Set(results.map(\.asked)).count == total)  // ids are unique across both halves
                if let residentBefore, let residentHalfway, let residentAfter {
                    // A leak of even 5 KB per request would add 25 MB per half; noise stays well under that.
                    #expect(residentHalfway - residentBefore < 25_000_000)
                    #expect(residentAfter - residentHalfway < 25_000_000)
                }
            }
        }

        /// Loads `/echo?id=N` for N in 0..<count with `webservice`, keeping `inFlight` loads running; returns each id with the one the
        /// server echoed in the body, checked against the echo header too.
        private func load(_ webservice: Webservice, count: Int, inFlight: Int, base: URL) async throws -> [(
            asked: String, answered: String
        )] {
            try await withThrowingTaskGroup(of: (String, String).self) { group in
                var results: [(asked: String, answered: String)] = []
                results.reserveCapacity(count)
                var next = 0
                func start() {
                    let id = "\(next)-\(UUID().uuidString)"
                    next += 1
                    group.addTask {
                        var echo = Resource<String>(
                            url: base / "echo",
                            parse: { data, response in
                                let body = try JSONDecoder().decode(Echo.self, from: data).id
                                let header = response?.value(forHTTPHeaderField: "X-Echo-Id")
                                return header == body ? body : "header \(header ?? "none") ≠ body \(body)"
                            })
                        echo.queryItems = [URLQueryItem(name: "id", value: id)]
                        return (id, try await webservice.load(echo))
                    }
                }
                while next < min(inFlight, count) { start() }
                while let result = try await group.next() {
                    results.append(result)
                    if next < count { start() }
                }
                return results
            }
        }

        /// The process's resident set size in bytes, from `/proc/self/statm` (Linux only).
        private func residentMemory() -> Int? {
            guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
            let fields = statm.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        private func megabytes(_ bytes: Int) -> String {
            String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }
    }
}
