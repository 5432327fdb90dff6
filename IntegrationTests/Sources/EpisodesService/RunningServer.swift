import Foundation
import ServiceLifecycle

/// An Episodes server that is listening; ``stop()`` shuts it down.
public struct RunningServer: Sendable {
    /// The URL the server listens on, such as `http://127.0.0.1:54321`.
    public let baseURL: URL

    /// The task running the Hummingbird application's service group.
    private let task: Task<Void, Never>
    /// The service group running the application, which ``stop()`` shuts down gracefully.
    private let group: ServiceGroup

    init(baseURL: URL, task: Task<Void, Never>, group: ServiceGroup) {
        self.baseURL = baseURL
        self.task = task
        self.group = group
    }

    /// Stops the server and waits until it has finished: a graceful shutdown (no new connection; idle ones closed,
    /// requests in flight finished), cancelled if it takes more than a second.
    ///
    /// Cancelling at once could leave a connection accepted but not yet served, which SwiftNIO traps on
    /// (apple/swift-nio#3481); a graceful shutdown closes it. Calling it again does nothing.
    public func stop() async {
        await group.triggerGracefulShutdown()
        let task = task
        let deadline = Task {
            guard (try? await Task.sleep(for: .seconds(1))) != nil else { return }
            task.cancel()
        }
        await task.value
        deadline.cancel()
    }
}
