import Foundation
import Synchronization

extension ResponseBody {
    /// A body kept outside memory until its load ends, such as a download's file: `commit` runs, off the cooperative
    /// pool, once the load has succeeded and before its parse (``Webservice/load(_:)->A``); `discard` runs when the
    /// body is dropped without that, so a failed load leaves nothing behind.
    ///
    /// It is what a download's receiver returns (``Resource/receiver``): a middleware that fails the load, a timeout
    /// or a cancellation after the body arrived leave the destination as it was.
    public init(
        committing commit: @escaping @Sendable () throws -> Void,
        discarding discard: @escaping @Sendable () -> Void
    ) {
        storage = .committed(Commitment(commit: commit, discard: discard))
    }

    /// The commit of a body kept outside memory, once: for the load that succeeded; `nil` for any other body.
    func takeCommit() -> (@Sendable () throws -> Void)? {
        if case .committed(let commitment) = storage { commitment.take() } else { nil }
    }

    /// A commit and its discard, which runs when the last copy of the body goes unless the commit was taken.
    final class Commitment: Sendable {
        private let actions: Mutex<(commit: @Sendable () throws -> Void, discard: @Sendable () -> Void)?>

        init(commit: @escaping @Sendable () throws -> Void, discard: @escaping @Sendable () -> Void) {
            actions = Mutex((commit, discard))
        }

        func take() -> (@Sendable () throws -> Void)? {
            actions.withLock { actions in
                defer { actions = nil }
                return actions?.commit
            }
        }

        deinit {
            actions.withLock { $0 }?.discard()
        }
    }
}
