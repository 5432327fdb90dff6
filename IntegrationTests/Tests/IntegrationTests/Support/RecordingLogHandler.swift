import Logging
import Synchronization

/// A swift-log handler that keeps every line it is given, with the logger's and the line's metadata merged, for a test
/// to read.
struct RecordingLogHandler: LogHandler {
    /// A line as the handler got it.
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: [String: String]

        /// The line and its metadata, all of it, as one text: what a test searches for a secret.
        var fullText: String { "\(message) \(metadata.sorted { $0.key < $1.key })" }
    }

    /// The lines logged so far, shared by the handler's copies.
    final class Lines: Sendable {
        private let lines = Mutex<[Line]>([])
        var all: [Line] { lines.withLock { $0 } }
        func append(_ line: Line) { lines.withLock { $0.append(line) } }
    }

    let lines: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    init(lines: Lines, logLevel: Logger.Level) {
        self.lines = lines
        self.logLevel = logLevel
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append(Line(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

extension Logger {
    /// A logger at `level` whose lines go to `lines`.
    static func recording(into lines: RecordingLogHandler.Lines, level: Logger.Level = .trace, label: String = "test")
        -> Logger
    {
        Logger(label: label) { _ in RecordingLogHandler(lines: lines, logLevel: level) }
    }
}
