import Foundation
import Synchronization

extension LoadContext {
    /// The load a context belongs to, shared by every copy of its context: where a middleware that runs more than once
    /// a load (after ``RetryPolicy``, say) keeps one thing for the whole load, and hears of its end, as
    /// `DistributedTracing` does with the load's span.
    public final class Load: Sendable {
        private struct State {
            var values: [ObjectIdentifier: any Sendable] = [:]
            var handlers: [@Sendable (Result<Int, any Error>) -> Void] = []
            var outcome: Result<Int, any Error>?
        }

        private let state = Mutex(State())

        init() {}

        /// Whether the load has its response or its error already: a layer its load abandoned (at the deadline) may
        /// still be running.
        public var hasEnded: Bool { state.withLock { $0.outcome != nil } }

        /// The value kept under `key` for this load, which `make` makes the first time it is asked for; `make` must
        /// not use this load.
        public func value<Value: Sendable>(for key: ObjectIdentifier, orMake make: () -> Value) -> Value {
            state.withLock { state in
                if let value = state.values[key] as? Value { return value }
                let value = make()
                state.values[key] = value
                return value
            }
        }

        /// Calls `handler` once the load has its response's status code or its error, as the pipeline returns them
        /// (before the resource parses the body); at once if it has them already.
        public func onEnd(_ handler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
            let outcome = state.withLock { state in
                if state.outcome == nil { state.handlers.append(handler) }
                return state.outcome
            }
            if let outcome { handler(outcome) }
        }

        /// Ends the load with `outcome`, calling each handler once, outside the lock; a second end changes nothing.
        func end(_ outcome: Result<Int, any Error>) {
            let handlers = state.withLock { state -> [@Sendable (Result<Int, any Error>) -> Void] in
                guard state.outcome == nil else { return [] }
                state.outcome = outcome
                defer { state.handlers = [] }
                return state.handlers
            }
            for handler in handlers { handler(outcome) }
        }
    }
}
