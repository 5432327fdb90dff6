import Foundation

/// Waits `seconds`, whether or not the task is cancelled meanwhile (`Task.sleep` would end at once): work slow to stop.
func uncancellablePause(_ seconds: TimeInterval) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { done.resume() }
    }
}
