import Foundation

/// A task that sleeps 10 ms at a time while other work runs, and notes how late it wakes up.
enum Heartbeat {
    /// Runs `work` while the sleeper sleeps; returns the seconds `work` took and the sleeper's worst lateness, in
    /// seconds.
    static func during(_ work: () async throws -> Void) async throws -> (seconds: Double, lateness: Double) {
        let period: UInt64 = 10_000_000
        let sleeper = Task {
            var worst: UInt64 = 0
            while true {
                let start = DispatchTime.now().uptimeNanoseconds
                guard (try? await Task.sleep(nanoseconds: period)) != nil else { return worst }
                worst = max(worst, DispatchTime.now().uptimeNanoseconds - start - period)
            }
        }
        try await Task.sleep(nanoseconds: 2 * period)  // the sleeper is asleep before the work begins
        let clock = ContinuousClock()
        let took = try await clock.measure(work)
        sleeper.cancel()
        return (took.seconds, Double(await sleeper.value) / 1e9)
    }
}
