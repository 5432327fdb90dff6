import Foundation
import ResourceKit
import Testing

extension MemoryHungryTests {
    /// Many large bodies arriving at once never stall the process through `URLSession`: a task that sleeps 10 ms in a
    /// loop wakes on time while they load.
    ///
    /// On Linux, a delegate queue that made curl's thread wait while it held FoundationNetworking's work queue blocked
    /// every Swift concurrency thread that created, resumed or cancelled a task: the sleeper woke up to 1.6 s late
    /// where raw `URLSession.shared` was 0.17 s late. AsyncHTTPClient has no such queue; its reads are Swift jobs on the
    /// sleeper's own threads, so in this debug build, with the server in the same process on 2 cores, its lateness
    /// (about 1 s) measures its share of the CPU, not a stall; Benchmarks/README.md compares both in release builds.
    /// The test runs in a child process, where no other test's work can make it late.
    @Suite(.timeLimit(.minutes(2))) struct HeartbeatTests {
        /// How late the sleeper may wake: far above a loaded 2-core machine's scheduling, far below a stall.
        private static let allowance: UInt64 = 250_000_000

        @Test func aSleepingTaskWakesOnTimeWhileLargeBodiesArriveThroughURLSession() async throws {
            try await inChildProcess {
                try await withServer { base in
                    let resource = bytes(base / "faults/large?megabytes=2")
                    let webservice = TransportKind.urlSession.webservice()
                    let (lateness, loaded) = try await whileSleeping {
                        try await load(resource, times: 96, inFlight: 32, with: webservice)
                    }
                    #expect(loaded == 96 * 2 << 20)
                    #expect(lateness < Self.allowance, "the sleeper woke up \(lateness / 1_000_000) ms late")
                }
            }
        }

        /// Loads `resource` `times` times with `inFlight` loads at once; returns the bytes loaded.
        private func load(_ resource: Resource<Data>, times: Int, inFlight: Int, with webservice: Webservice)
            async throws -> Int
        {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<inFlight { group.addTask { try await webservice.load(resource).count } }
                var (started, loaded) = (inFlight, 0)
                while let count = try await group.next() {
                    loaded += count
                    if started < times {
                        group.addTask { try await webservice.load(resource).count }
                        started += 1
                    }
                }
                return loaded
            }
        }

        /// Runs `work` while a task sleeps 10 ms at a time; returns how late, at worst, it woke up, in nanoseconds, and
        /// what `work` returned.
        private func whileSleeping<T: Sendable>(_ work: () async throws -> T) async throws -> (UInt64, T) {
            let sleeper = Task {
                var worst: UInt64 = 0
                while !Task.isCancelled {
                    let start = DispatchTime.now().uptimeNanoseconds
                    guard (try? await Task.sleep(nanoseconds: 10_000_000)) != nil else { break }
                    worst = max(worst, DispatchTime.now().uptimeNanoseconds - start - 10_000_000)
                }
                return worst
            }
            // The sleeper's first sleep has begun before the work does.
            try await Task.sleep(nanoseconds: 20_000_000)
            let result = try await work()
            sleeper.cancel()
            return (await sleeper.value, result)
        }
    }
}
