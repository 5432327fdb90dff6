import Foundation

/// A field of `/proc/self/status` in bytes, such as `VmRSS` (resident now) or `VmHWM` (the most resident yet), or `nil`
/// where there is no such file.
func processMemory(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
    let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    return kilobytes.map { $0 * 1024 }
}
