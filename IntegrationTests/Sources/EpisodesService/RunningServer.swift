import Foundation

/// An Episodes server that is listening; ``stop()`` shuts it down.
public struct RunningServer: Sendable {
    /// The URL the server listens on, such as `http://127.0.0.1:54321`.
    public let baseURL: URL

    /// The task running the Hummingbird application.
    private let task: Task<Void, Never>

    init(baseURL: URL, task: Task<Void, Never>) {
        self.baseURL = baseURL
        self.task = task
    }

    /// Stops the server: cancels the task running the application and waits until it has finished.
    ///
    /// It closes the listening socket and the open connections; calling it again does nothing.
    public func stop() async {
        task.cancel()
        await task.value
    }
}
