import Foundation
import ResourceKit
import SwiftTalk
import Testing

/// The response kinds and decoding shapes, loaded from the real server.
@Suite(.timeLimit(.minutes(1))) struct ResponseKindsTests {
    @Test(arguments: TransportKind.allCases)
    func textIsDecodedWithTheResponsesCharset(kind: TransportKind) async throws {
        try await withServer { base in
            let text = try await kind.webservice().load(
                Resource<String>(url: base / "faults/latin1", textEncoding: .utf8))
            #expect(text == "Café crème")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func voidResourceDeletesAndIgnoresTheEmptyBody(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
            try await webservice.load(Resource<Void>(url: base / "episodes/1", method: .delete))
            let remaining = try await webservice.load(Episode.all(at: base))
            #expect(remaining.map(\.id) == ["2", "3"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func modelAtACodingPathIsDecodedAlone(kind: TransportKind) async throws {
        try await withServer { base in
            let secondTitle = try await kind.webservice().load(
                Resource<String>(get: base / "episodes", at: ["1", "title"]))
            #expect(secondTitle == "Connecting View Controllers")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func payloadReportsTheShapeTheServerSent(kind: TransportKind) async throws {
        try await withServer { base in
            let webservice = kind.webservice()
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

    @Test(arguments: TransportKind.allCases)
    func lenientArrayKeepsEveryValidEpisode(kind: TransportKind) async throws {
        try await withServer { base in
            let lenient = try await kind.webservice().load(Resource<LenientArray<Episode>>(get: base / "episodes"))
            #expect(lenient.elements.count == 3)
            #expect(lenient.failures.isEmpty)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func webserviceIsAResourceLoaderForViewModels(kind: TransportKind) async throws {
        try await withServer { base in
            let loader: any ResourceLoading = kind.webservice()
            let episodes = try await loader.load(Episode.all(at: base))
            #expect(episodes.count == 3)
        }
    }
}
