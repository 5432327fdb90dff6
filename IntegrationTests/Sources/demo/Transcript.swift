/// Runs the demo's steps, prints one line for each, and keeps count.
struct Transcript {
    /// How many requests were sent.
    private(set) var requests = 0
    /// The steps that did not behave as expected.
    private(set) var failures = 0
    /// The error of the last step that failed.
    private(set) var lastError: (any Error)?

    /// The width of the label column.
    private static let labelWidth = 36

    /// Sends one request through `body`, which checks the answer and returns a value for later steps and a summary.
    ///
    /// - Returns: The step's value, or `nil` when it threw; its error is printed and counted.
    mutating func step<Value>(
        _ label: String,
        _ body: () async throws -> (value: Value, summary: String)
    ) async -> Value? {
        requests += 1
        do {
            let (value, summary) = try await body()
            print(Self.line("→", label, summary))
            return value
        } catch {
            failures += 1
            lastError = error
            print(Self.line("✗", label, describe(error)))
            return nil
        }
    }

    /// Records a step that could not run because an earlier one failed.
    mutating func skip(_ label: String, because reason: String) {
        failures += 1
        print(Self.line("✗", label, "skipped: \(reason)"))
    }

    private static func line(_ mark: String, _ label: String, _ text: String) -> String {
        let padding = String(repeating: " ", count: max(labelWidth - label.count, 2))
        return "\(mark) \(label)\(padding)\(text)"
    }
}
