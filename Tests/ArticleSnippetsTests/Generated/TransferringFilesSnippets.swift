// Generated from Sources/ResourceKit/ResourceKit.docc/TransferringFiles.md by `swift run update-snippets`; do not edit.
// swift-format-ignore-file

import Foundation
import ResourceKit
import ArticlePreludes
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// TransferringFiles.md:16, block 1
@MainActor private func transferringFilesSnippet1() async throws {
    let destination = URL(fileURLWithPath: "/var/cache/app/episode-1.mp4")
    let video = Resource<URL>(url: baseURL.appendingPathComponent("episodes/1/video"), downloadingTo: destination)
    let saved = try await webservice.load(video)  // == destination
    _ = (destination, video, saved)
}

// TransferringFiles.md:70, block 2
@MainActor private func transferringFilesSnippet2() async throws {
    let directory = destination.deletingLastPathComponent()
    for suffix in ["partial", "resume"] {
        try? FileManager.default.removeItem(
            at: directory.appendingPathComponent(".\(destination.lastPathComponent).\(suffix)"))
    }
    _ = (directory)
}

// TransferringFiles.md:89, block 3
@MainActor private func transferringFilesSnippet3() async throws {
    let upload = try Resource<Receipt>(
        url: baseURL.appendingPathComponent("uploads"), method: .put(RequestBody.file(videoURL, contentType: "video/mp4")))
    let receipt = try await webservice.load(upload)
    _ = (upload, receipt)
}

// TransferringFiles.md:107, block 4
@MainActor private func transferringFilesSnippet4() async throws {
    var video = Resource<URL>(url: videoURL, downloadingTo: destination)
    video.progress = { progress in
        let fraction = progress.expectedBytes.map { Double(progress.bytes) / Double(max($0, 1)) } ?? 0
        Task { @MainActor in model.fraction = fraction }
    }
    _ = (video)
}
