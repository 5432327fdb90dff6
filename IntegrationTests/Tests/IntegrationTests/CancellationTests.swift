import Foundation
import ResourceKit
import SwiftTalk
import Testing

/// Cancelling the calling task stops a real request, before it starts or while the server is still thinking.
@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
    /// A request the server answers slowly, or never: while the server is still thinking, and during a trickle.
    private static let slowAnswers = ["faults/stall?ms=30000", "faults/trickle?bytes=200&ms=100"]

    @Test(arguments: TransportKind.allCases, slowAnswers)
    func cancellingMidRequestThrowsCancellationError(kind: TransportKind, path: String) async throws {
        try await withServer { base in
            let task = Task { try await kind.webservice().load(bytes(base / path)) }
            try await Task.sleep(for: .milliseconds(400))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func cancelledBeforeStartingNeverReachesTheServer(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
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

    @Test(arguments: TransportKind.allCases)
    func serverStaysUsableAfterCancelledRequests(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
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
