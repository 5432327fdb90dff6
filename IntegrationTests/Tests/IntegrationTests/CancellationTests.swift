import Foundation
import ResourceKit
import SwiftTalk
import Testing

/// Cancelling the calling task stops a real request, before it starts or while the server is still thinking.
@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
    @Test func cancellingMidRequestThrowsCancellationError() async throws {
        try await withServer { base in
            let task = Task { try await webservice.load(bytes(base / "faults/stall?ms=30000")) }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test func cancellingDuringATrickleThrowsCancellationError() async throws {
        try await withServer { base in
            let task = Task { try await webservice.load(bytes(base / "faults/trickle?bytes=200&ms=100")) }
            try await Task.sleep(for: .milliseconds(500))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test func cancelledBeforeStartingNeverReachesTheServer() async throws {
        try await withServer { base in
            let before = try await webservice.load(Episode.all(at: base)).count
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await webservice.load(
                    Episode.create(EpisodeDraft(title: "Never", synopsis: "Cancelled first"), at: base))
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try await webservice.load(Episode.all(at: base)).count == before)
        }
    }

    @Test func serverStaysUsableAfterCancelledRequests() async throws {
        try await withServer { base in
            for _ in 0..<5 {
                let task = Task { try await webservice.load(bytes(base / "faults/stall?ms=30000")) }
                try await Task.sleep(for: .milliseconds(50))
                task.cancel()
                _ = try? await task.value
            }
            #expect(try await webservice.load(Episode.all(at: base)).count == 3)
        }
    }
}
