import Foundation

/// Whether a larger figure is better (a throughput) or a smaller one (a time, a peak).
enum Better: Sendable {
    case higher
    case lower
}

/// One library-versus-raw comparison: both variants' rounds and the verdict against the target ratio.
struct Comparison: Sendable {
    var section, shape, unit: String
    var decimals: Int
    var libraryName, rawName: String
    var library, raw: Samples
    var better: Better
    var target: Target

    /// Library ÷ raw for a throughput, raw ÷ library for a time: above 1, the library is faster.
    var ratio: Double {
        switch better {
        case .higher: library.median / raw.median
        case .lower: raw.median / library.median
        }
    }

    var ratioDefinition: String {
        switch better {
        case .higher: "library ÷ raw"
        case .lower: "raw ÷ library (time)"
        }
    }

    var passes: Bool { target.passes(ratio) }
}

/// The ratio a comparison must reach, or pass when `strict`; every ratio is defined so that higher is better.
struct Target: Sendable {
    var value: Double
    var strict = false

    /// At least `value`.
    static func atLeast(_ value: Double) -> Target { Target(value: value) }
    /// More than `value`: better than the baseline, not only as good.
    static func above(_ value: Double) -> Target { Target(value: value, strict: true) }

    func passes(_ ratio: Double) -> Bool { strict ? ratio > value : ratio >= value }

    var text: String { (strict ? "> " : "≥ ") + Format.number(value, decimals: 2) }
}

/// A line of the final summary.
struct SummaryLine: Sendable {
    var section, shape, definition: String
    var ratio: Double
    var target: String
    var passes: Bool
    var kind = Kind.verdict

    /// What a line says.
    enum Kind: Sendable {
        /// A verdict on the library: PASS or MISS.
        case verdict
        /// A raw baseline's figure, for reference: ok or FLAG.
        case baseline
        /// A diagnostic figure without a target.
        case info
    }

    var result: String {
        switch (kind, passes) {
        case (.verdict, true): "PASS"
        case (.verdict, false): "MISS"
        case (.baseline, true): "ok (raw)"
        case (.baseline, false): "FLAG (raw)"
        case (.info, _): "info"
        }
    }
}

/// Everything printed, in the order it was measured, and the summary at the end.
final class Report {
    private(set) var summary: [SummaryLine] = []

    func heading(_ text: String) {
        Machine.flush()
        print("")
        print("== \(text) ==")
    }

    /// Prints a comparison's table, with optional extra rows (such as the server's own figure) and notes.
    func add(_ comparison: Comparison, extraRows: [[String]] = [], notes: [String] = []) {
        let unit = comparison.unit
        let decimals = comparison.decimals
        func row(_ name: String, _ samples: Samples) -> [String] {
            [
                name,
                Format.number(samples.median, decimals: decimals) + " " + unit,
                Format.number(samples.min, decimals: decimals) + " – " + Format.number(samples.max, decimals: decimals),
                "", "", "",
            ]
        }
        var rows = [
            row(comparison.libraryName, comparison.library),
            row(comparison.rawName, comparison.raw),
            [
                comparison.ratioDefinition, "", "", Format.number(comparison.ratio, decimals: 3),
                comparison.target.text, comparison.passes ? "PASS" : "MISS",
            ],
        ]
        rows += extraRows.map { $0 + Array(repeating: "", count: Swift.max(0, 6 - $0.count)) }
        print("-- \(comparison.shape) --")
        Table.print(header: ["variant", "median", "spread (min – max)", "ratio", "target", "result"], rows: rows)
        for note in notes { print("   \(note)") }
        Machine.flush()
        summary.append(
            SummaryLine(
                section: comparison.section, shape: comparison.shape, definition: comparison.ratioDefinition,
                ratio: comparison.ratio, target: comparison.target.text,
                passes: comparison.passes))
    }

    func addSummaryLine(_ line: SummaryLine) {
        summary.append(line)
    }

    func printSummary() {
        heading("Summary: every ratio (medians)")
        let rows = summary.map { line in
            [
                line.section, line.shape, line.definition, Format.number(line.ratio, decimals: 3), line.target,
                line.result,
            ]
        }
        Table.print(header: ["section", "shape", "ratio of", "ratio", "target", "result"], rows: rows, leftAligned: 3)
        let verdicts = summary.filter { $0.kind == .verdict }
        let misses = verdicts.filter { !$0.passes }.count
        let flags = summary.filter { $0.kind == .baseline && !$0.passes }.count
        print("Library: \(verdicts.count - misses) passed, \(misses) missed; raw baselines flagged: \(flags)")
    }
}

/// Fixed-width text tables: the first `leftAligned` columns left-aligned, the rest right-aligned.
enum Table {
    static func print(header: [String], rows: [[String]], leftAligned: Int = 1) {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
        }
        func line(_ row: [String]) -> String {
            var cells: [String] = []
            for index in 0..<columns {
                let cell = index < row.count ? row[index] : ""
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                cells.append(index < leftAligned ? cell + padding : padding + cell)
            }
            return "   "
                + cells.joined(separator: "  ").replacingOccurrences(
                    of: "\\s+$", with: "", options: .regularExpression)
        }
        Swift.print(line(header))
        Swift.print("   " + String(repeating: "-", count: widths.reduce(0, +) + 2 * (columns - 1)))
        for row in rows { Swift.print(line(row)) }
    }
}

/// Number formatting for the tables.
enum Format {
    /// `value` with `decimals` decimals and thousands grouped with commas: `12,345.6`.
    static func number(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "n/a" }
        let text = String(format: "%.\(decimals)f", value)
        let negative = text.hasPrefix("-")
        let unsigned = negative ? String(text.dropFirst()) : text
        let parts = unsigned.split(separator: ".", maxSplits: 1)
        let integer = Array(parts[0])
        var grouped = ""
        for (index, digit) in integer.enumerated() {
            if index > 0 && (integer.count - index).isMultiple(of: 3) { grouped += "," }
            grouped.append(digit)
        }
        let fraction = parts.count > 1 ? "." + parts[1] : ""
        return (negative ? "-" : "") + grouped + fraction
    }

    /// `bytes` in megabytes (10⁶ bytes).
    static func megabytes(_ bytes: Double, decimals: Int = 1) -> String {
        number(bytes / 1_000_000, decimals: decimals) + " MB"
    }
}
