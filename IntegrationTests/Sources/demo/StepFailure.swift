/// An answer that arrived but was not the one a step expected.
struct StepFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
