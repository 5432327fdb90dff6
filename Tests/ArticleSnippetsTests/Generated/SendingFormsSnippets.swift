// Generated from Sources/ResourceKit/ResourceKit.docc/SendingForms.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// SendingForms.md:10, block 1
private struct Receipt: Decodable, Sendable { var id: String }

private func upload(title: String, video: URL) throws -> Resource<Receipt> {
    try Resource<Receipt>(url: baseURL.appendingPathComponent("uploads"), method: .post(.multipart([
        .field("title", title),
        .file("video", at: video, contentType: "video/mp4"),
    ])))
}

@MainActor private func sendingFormsSnippet1() async throws {
    let login = try Resource<Void>(url: baseURL.appendingPathComponent("login"), method: .post(.urlEncoded([
        URLQueryItem(name: "user", value: "ada"), URLQueryItem(name: "password", value: password),
    ])))
    _ = (login)
}
