import Foundation

/// The per-round figures of one variant, with the summary statistics the tables print.
struct Samples: Sendable {
    var values: [Double]

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    var min: Double { values.min() ?? .nan }
    var max: Double { values.max() ?? .nan }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Times two variants of the same work, interleaved A, B, A, B… and alternating which goes first, so drift in the
/// machine (CPU frequency, another process, the heap's state) hits both alike.
enum Interleaved {
    /// Returns each variant's seconds per round, over `rounds` rounds of `count` operations each.
    ///
    /// The operations are paired one by one: each round runs a library operation and a raw one, then a raw one and a
    /// library one, and so on. A few untimed operations of each come first, to open connections and warm caches.
    static func pairs(
        rounds: Int,
        count: Int,
        library: () async throws -> Void,
        raw: () async throws -> Void
    ) async throws -> (library: [Double], raw: [Double]) {
        for _ in 0..<Swift.max(1, count / 10) {
            try await library()
            try await raw()
        }
        let clock = ContinuousClock()
        var libraryTimes: [Double] = []
        var rawTimes: [Double] = []
        for round in 0..<rounds {
            var libraryTime = Duration.zero
            var rawTime = Duration.zero
            for index in 0..<count {
                if (round + index).isMultiple(of: 2) {
                    libraryTime += try await clock.measure(library)
                    rawTime += try await clock.measure(raw)
                } else {
                    rawTime += try await clock.measure(raw)
                    libraryTime += try await clock.measure(library)
                }
            }
            libraryTimes.append(libraryTime.seconds)
            rawTimes.append(rawTime.seconds)
        }
        return (libraryTimes, rawTimes)
    }

    /// Returns the seconds of every round of each variant, for work that can't be split into single operations, such
    /// as a batch with many requests in flight.
    ///
    /// Runs `library` and `raw` once each untimed, then `rounds` timed rounds of each, alternating which goes first.
    static func batches(
        rounds: Int,
        library: () async throws -> Void,
        raw: () async throws -> Void
    ) async throws -> (library: [Double], raw: [Double]) {
        try await pairs(rounds: rounds, count: 1, library: library, raw: raw)
    }
}

/// Runs `operation` `total` times, keeping `width` of them in flight in a task group.
func inFlight(
    _ total: Int,
    width: Int,
    _ operation: @escaping @Sendable () async throws -> Void
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        var started = 0
        while started < Swift.min(width, total) {
            group.addTask(operation: operation)
            started += 1
        }
        while try await group.next() != nil {
            if started < total {
                group.addTask(operation: operation)
                started += 1
            }
        }
    }
}
