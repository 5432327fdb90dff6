// Generated from Sources/ResourceKit/ResourceKit.docc/StreamingResponses.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// StreamingResponses.md:11, block 1
private struct Delta: Decodable, Sendable { var text: String }

private extension Chat {
    static func completions(for prompt: Prompt) throws -> StreamingResource<Delta> {
        StreamingResource(try Resource<Void>(url: completionsURL, method: .post(prompt)), serverSentEvents: { event in
            try JSONDecoder().decode(Delta.self, from: Data(event.data.utf8))
        })
    }
}

@MainActor private func streamingResponsesSnippet1() async throws {
    for try await delta in try await webservice.load(Chat.completions(for: prompt)) {
        print(delta.text, terminator: "")
    }
}

// StreamingResponses.md:83, block 2
@MainActor private func streamingResponsesSnippet2() async throws {
    var updates = StreamingResource(
        Resource<Data>(url: baseURL.appendingPathComponent("updates")), serverSentEvents: { $0 })
    updates.maxReconnections = 0
    do {
        for try await event in try await webservice.load(updates) { print(event.data) }
    } catch let error as WebserviceError {
        if case .interrupted(_, let response, let events, _) = error.reason {
            print("HTTP \(response.statusCode) broke off after \(events) events")
        }
    }
    _ = (updates)
}

// StreamingResponses.md:130, block 3
@MainActor private func streamingResponsesSnippet3() async throws {
    let recording = Data("data: {\"text\":\"Hel\"}\n\ndata: {\"text\":\"lo\"}\n\n".utf8)
    #expect(try Chat.completions(for: prompt).parse(recording).map(\.text) == ["Hel", "lo"])
    _ = (recording)
}
