import Foundation

/// A monotonic clock in nanoseconds, for durations and deadlines on every platform ResourceKit supports (`Duration`
/// and `ContinuousClock` need macOS 13): what a ``LoadContext/Deadline`` is read on.
public enum Uptime {
    /// The clock's reading now.
    public static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    /// The seconds since `start`, a reading of ``now()``.
    public static func seconds(since start: UInt64) -> TimeInterval {
        TimeInterval(now() &- start) / 1_000_000_000
    }

    /// `seconds` in nanoseconds: none for a negative or NaN value, and at most about 31 years, so it can't overflow.
    public static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        seconds.isNaN ? 0 : UInt64(min(max(seconds, 0), 1_000_000_000) * 1_000_000_000)
    }
}
