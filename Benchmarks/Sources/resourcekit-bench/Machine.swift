import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How busy the machine is, so a run on a machine that is doing something else says so: on 2 cores, a compiler in
/// the background moves every figure.
enum Machine {
    /// The share of all cores that was busy over `seconds`, from /proc/stat; `nil` where there is none.
    static func busyShare(over seconds: Double) async -> Double? {
        guard let first = cpuTimes() else { return nil }
        try? await Task.sleep(for: .seconds(seconds))
        guard let second = cpuTimes(), second.total > first.total else { return nil }
        return Double(second.busy - first.busy) / Double(second.total - first.total)
    }

    /// The 1-, 5- and 15-minute load averages, from /proc/loadavg.
    static var loadAverage: String? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    /// A line saying how busy the machine was, with a warning when it wasn't idle.
    static func report(busy: Double?, when: String) -> String {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var line = "machine \(when): \(cores) cores"
        if let busy { line += ", \(Format.number(busy * 100, decimals: 0))% busy" }
        if let loadAverage { line += ", load average \(loadAverage)" }
        if let busy, busy > 0.15 {
            line += " — WARNING: something else is running; the figures will be noisy"
        }
        return line
    }

    /// Writes out what `print` has buffered, so a run logged to a file shows its progress.
    static func flush() {
        fflush(nil)
    }

    private static func cpuTimes() -> (busy: Int, total: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
        else { return nil }
        let fields = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard fields.count >= 5 else { return nil }
        let total = fields.prefix(8).reduce(0, +)
        let idle = fields[3] + fields[4]  // idle and iowait
        return (total - idle, total)
    }
}
