import Foundation
import ResourceKit
import SwiftTalk
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The response kinds and decoding shapes, loaded from the real server.
@Suite(.timeLimit(.minutes(1))) struct ResponseKindsTests {
    @Test func textIsDecodedWithTheResponsesCharset() async throws {
        try await withServer { base in
            let text = try await webservice.load(Resource<String>(url: base / "faults/latin1"))
            #expect(text == "Café crème")
        }
    }

    @Test func voidResourceDeletesAndIgnoresTheEmptyBody() async throws {
        try await withServer { base in
            try await webservice.load(Resource<Void>(url: base / "episodes/1", method: .delete))
            let remaining = try await webservice.load(Episode.all(at: base))
            #expect(remaining.map(\.id) == ["2", "3"])
        }
    }

    @Test func modelAtACodingPathIsDecodedAlone() async throws {
        try await withServer { base in
            let secondTitle = try await webservice.load(Resource<String>(get: base / "episodes", at: [1, "title"]))
            #expect(secondTitle == "Connecting View Controllers")
        }
    }

    @Test func payloadReportsTheShapeTheServerSent() async throws {
        try await withServer { base in
            let list = try await webservice.load(Resource<Payload<Episode>>(get: base / "episodes"))
            let one = try await webservice.load(Resource<Payload<Episode>>(get: base / "episodes/1"))
            guard case .array(let episodes) = list, case .one(let episode) = one else {
                Issue.record("expected an array and one episode, got \(list) and \(one)")
                return
            }
            #expect(episodes.count == 3)
            #expect(episode.id == "1")
        }
    }

    @Test func lenientArrayKeepsEveryValidEpisode() async throws {
        try await withServer { base in
            let lenient = try await webservice.load(Resource<LenientArray<Episode>>(get: base / "episodes"))
            #expect(lenient.elements.count == 3)
            #expect(lenient.failures.isEmpty)
        }
    }

    @Test func webserviceIsAResourceLoaderForViewModels() async throws {
        try await withServer { base in
            let loader: any ResourceLoading = webservice
            let episodes = try await loader.load(Episode.all(at: base))
            #expect(episodes.count == 3)
        }
    }
}
