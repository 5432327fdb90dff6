/// A clock whose sleeps end at once, each moving its time on, and which records them: a retry policy's waits on it
/// take no time.
final class SkippingClock: Clock {
    private let start = ContinuousClock.now
    private let slept = Shared<[Duration]>([])

    /// The sleeps asked for, in order.
    var sleeps: [Duration] { slept.value }

    var now: ContinuousClock.Instant { start + slept.value.reduce(.zero, +) }
    var minimumResolution: Duration { .zero }

    func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        slept.update { $0.append(max(.zero, deadline - (start + $0.reduce(.zero, +)))) }
    }
}
