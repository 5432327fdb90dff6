import EpisodesService
import Foundation
import ResourceKit
import SwiftTalk
import Synchronization
import Tracing
import W3CTracing

/// The demo's requests, in the order an app would send them, each checking the answer it gets.
struct Tour {
    let baseURL: URL
    let webservice: Webservice
    /// Makes a web service like ``webservice`` on the same transport, with `baseURL`, and `cache` and `middleware` after
    /// its own.
    let makeWebservice:
        @Sendable (_ baseURL: URL?, _ cache: ResponseCache?, _ middleware: [any Middleware]) -> Webservice
    /// Makes a web service like ``webservice`` on a transport of the same kind that keeps cookies in `jar`.
    let makeCookieWebservice: @Sendable (_ baseURL: URL, _ jar: CookieJar) -> Webservice
    var transcript = Transcript()

    /// A request label such as `GET /episodes/1/media`, taken from the resource itself.
    private func label<A>(_ resource: Resource<A>, _ note: String = "") -> String {
        "\(resource.method.name) \(resource.url.path)" + (note.isEmpty ? "" : " (\(note))")
    }

    /// Sends every request; returns `false` when the server can't be reached at all.
    mutating func run() async -> Bool {
        let episodes = await listEpisodes()
        if episodes == nil, case .transport = (transcript.lastError as? WebserviceError)?.reason {
            return false
        }
        await showMedia(of: episodes?.first)
        let created = await create(after: episodes ?? [])
        let renamed = await rename(created)
        await expectFailure(Episode.one(id: "99", at: baseURL), status: 404, code: "not_found")
        await expectFailure(
            Account.current(at: baseURL, token: "not-the-token"),
            note: "bad token",
            status: 401,
            code: "unauthorized"
        )
        await showAccount()
        await delete(renamed ?? created)
        await recoverFromOutage()
        await traceAttempts()
        await transferFiles()
        await resumeDownload()
        await stream()
        await firstDay()
        return true
    }

    /// Loads the episodes into a cache on disk, stops the server with `stop`, and loads them again from a cache
    /// opened anew on that directory, as an app does after a relaunch without a network.
    mutating func workOffline(stoppingServer stop: () async -> Void) async {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-demo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var all = Episode.all(at: baseURL)
        all.cachePolicy = .networkElseStored
        let stored = await transcript.step(label(all, "kept on disk")) { [all, makeWebservice] in
            // The web service and its cache go at the end of the step, which closes the directory, as the app's exit
            // would.
            let online = makeWebservice(nil, try ResponseCache(directory: directory, byteLimit: 10_000_000), [])
            let episodes = try await online.load(all)
            return (
                episodes.count, "\(episodes.count) episodes from the server, kept in \(directory.lastPathComponent)"
            )
        }
        await stop()
        guard let stored else { return transcript.skip(label(all, "offline"), because: "nothing was stored") }
        _ = await transcript.step(label(all, "server stopped")) { [all, makeWebservice] in
            let offline = makeWebservice(nil, try ResponseCache(directory: directory, byteLimit: 10_000_000), [])
            let episodes = try await offline.load(all)
            guard episodes.count == stored else {
                throw StepFailure("expected \(stored) episodes, got \(episodes.count)")
            }
            return ((), "\(episodes.count) episodes from the cache on disk, opened anew; the server is gone")
        }
    }

    /// Reads server-sent events as the server sends them, 100 ms apart, and 10 000 JSON lines, each parsed as it
    /// arrives.
    private mutating func stream() async {
        let events = Tick.events(at: baseURL, count: 5, milliseconds: 100)
        _ = await transcript.step(label(events.request, "server-sent events")) { [webservice] in
            let start = ContinuousClock.now
            var arrivals: [Duration] = []
            var ticks: [Int] = []
            for try await tick in try await webservice.load(events) {
                arrivals.append(ContinuousClock.now - start)
                ticks.append(tick.n)
            }
            guard ticks == Array(1...5) else { throw StepFailure("expected ticks 1 to 5, got \(ticks)") }
            let times = arrivals.map { "\(Int($0 / .milliseconds(1))) ms" }.joined(separator: ", ")
            return ((), "5 events as they came: \(times)")
        }
        let lines = Tick.lines(at: baseURL, count: 10_000)
        _ = await transcript.step(label(lines.request, "JSON Lines")) { [webservice] in
            var count = 0
            for try await tick in try await webservice.load(lines) {
                count += 1
                guard tick.n == count else { throw StepFailure("line \(count) was \(tick.n)") }
            }
            guard count == 10_000 else { throw StepFailure("expected 10 000 lines, got \(count)") }
            return ((), "10 000 lines, each parsed as it arrived")
        }
    }

    /// Downloads 8 MiB straight to a temporary file, then uploads that file, each with its progress: neither body is
    /// ever whole in memory.
    private mutating func transferFiles() async {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-demo-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let reports = Reports()
        var download = Resource<URL>(url: baseURL.appendingPathComponent("faults/large"), downloadingTo: file)
        download.queryItems = [URLQueryItem(name: "megabytes", value: "8")]
        download.progress = { reports.add($0) }
        _ = await transcript.step(label(download, "8 MiB to a file")) { [webservice] in
            let saved = try await webservice.load(download)
            let size = try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int
            guard size == 8 << 20 else { throw StepFailure("expected 8 MiB on disk, found \(size ?? 0) bytes") }
            let (count, last) = reports.take()
            guard let last, last.bytes == last.expectedBytes else {
                throw StepFailure("the last progress was \(String(describing: last))")
            }
            return ((), "8 MiB on disk; progress reported \(count) times, up to 100 %")
        }
        guard
            var upload = try? Resource<UploadReceipt>(
                url: baseURL.appendingPathComponent("transfers/upload"), method: .put(.file(file)))
        else { return }
        upload.progress = { reports.add($0) }
        _ = await transcript.step(label(upload, "the file as the body")) { [webservice] in
            let receipt = try await webservice.load(upload)
            guard receipt.bytes == 8 << 20 else { throw StepFailure("the server received \(receipt.bytes) bytes") }
            let (count, last) = reports.take()
            guard let last, last.bytes == last.expectedBytes else {
                throw StepFailure("the last progress was \(String(describing: last))")
            }
            return ((), "the server received 8 MiB read from disk; progress reported \(count) times, up to 100 %")
        }
    }

    /// Downloads 8 MiB that the server cuts off at 4 MiB: the ``RetryPolicy``'s second attempt resumes with `Range`
    /// from the bytes that arrived, and the server's count shows that none were sent twice.
    private mutating func resumeDownload() async {
        struct Sent: Decodable { var bytes: Int, requests: Int }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-demo-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let seed = URLQueryItem(name: "seed", value: String(UInt32.random(in: 1...UInt32.max)))
        var download = Resource<URL>(url: baseURL.appendingPathComponent("transfers/file"), downloadingTo: file)
        download.queryItems = [
            URLQueryItem(name: "bytes", value: "\(8 << 20)"), URLQueryItem(name: "cut", value: "\(4 << 20)"), seed,
        ]
        var sent = Resource<Sent>(get: baseURL.appendingPathComponent("transfers/file/sent"))
        sent.queryItems = [seed]
        _ = await transcript.step(label(download, "cut off at 4 MiB")) { [webservice, download, sent] in
            let saved = try await webservice.load(download)
            let size = try FileManager.default.attributesOfItem(atPath: saved.path)[.size] as? Int
            guard size == 8 << 20 else { throw StepFailure("expected 8 MiB on disk, found \(size ?? 0) bytes") }
            let server = try await webservice.load(sent)
            guard server.requests == 2, server.bytes == 8 << 20 else {
                throw StepFailure("the server sent \(server.bytes) bytes in \(server.requests) requests")
            }
            return ((), "resumed from 4 MiB on the retry: 8 MiB on disk, none of it sent twice")
        }
    }

    /// Loads from a route that answers 503 twice: the web service's ``RetryPolicy`` makes the load succeed anyway.
    private mutating func recoverFromOutage() async {
        struct Attempt: Decodable { var attempt: Int }
        let flaky = Resource<Attempt>(
            get: baseURL.appendingPathComponent("production/unavailable/demo-\(UUID().uuidString.prefix(4))"))
        _ = await transcript.step(label(flaky, "503 twice")) { [webservice] in
            let answer = try await webservice.load(flaky)
            guard answer.attempt == 3 else { throw StepFailure("expected the third attempt, got \(answer.attempt)") }
            return ((), "answered on attempt 3, after two retries")
        }
    }

    /// Loads from a route that answers 503 once, through ``DistributedTracing`` and inside a span of the demo's: the
    /// tracer prints each span as it ends, a client span for each attempt, both children of the demo's span.
    private mutating func traceAttempts() async {
        struct Attempt: Decodable { var attempt: Int }
        var flaky = Resource<Attempt>(
            get: baseURL.appendingPathComponent("production/unavailable/demo-\(UUID().uuidString.prefix(4))"))
        flaky.queryItems = [URLQueryItem(name: "failures", value: "1")]
        let tracer = W3CTracer { span in print("    \(span)") }
        let traced = makeWebservice(nil, nil, [DistributedTracing(tracer: tracer)])
        _ = await transcript.step(label(flaky, "traced, 503 once")) { [traced, flaky] in
            let answer = try await tracer.withSpan("demo") { _ in try await traced.load(flaky) }
            let spans = tracer.finishedSpans
            guard let demo = spans.last, spans.count == 3, answer.attempt == 2 else {
                throw StepFailure("expected 2 attempts and 3 spans, got \(answer.attempt) and \(spans.count)")
            }
            let statuses = spans.dropLast().map { $0.attribute("http.response.status_code") ?? "none" }
            guard spans.dropLast().allSatisfy({ $0.ids.parentSpanID == demo.ids.spanID }), statuses == ["503", "200"]
            else { throw StepFailure("expected a 503 and a 200 under the demo's span, got \(statuses)") }
            return ((), "a client span per attempt, 503 (error) then 200, under the demo's span")
        }
    }

    private mutating func listEpisodes() async -> [Episode]? {
        let all = Episode.all(at: baseURL)
        return await transcript.step(label(all)) { [webservice] in
            let episodes = try await webservice.load(all)
            guard !episodes.isEmpty else { throw StepFailure("expected some episodes, got none") }
            guard episodes.map(\.number) == episodes.map(\.number).sorted() else {
                throw StepFailure("expected episodes ordered by number, got \(episodes.map(\.number))")
            }
            let titles = episodes.prefix(3).map { "#\($0.number) \($0.title)" } + (episodes.count > 3 ? ["…"] : [])
            return (episodes, "\(episodes.count) episodes: \(titles.joined(separator: ", "))")
        }
    }

    private mutating func showMedia(of episode: Episode?) async {
        guard let episode else {
            return transcript.skip("GET /episodes/:id/media", because: "there is no episode to ask about")
        }
        let media = episode.media
        _ = await transcript.step(label(media)) { [webservice] in
            let media = try await webservice.load(media)
            guard media.episodeID == episode.id else {
                throw StepFailure("expected the media of episode \(episode.id), got episode \(media.episodeID)'s")
            }
            return ((), "\(media.videoURL) (\(media.durationSeconds / 60) min)")
        }
    }

    private mutating func create(after episodes: [Episode]) async -> Episode? {
        let draft = EpisodeDraft(
            title: "Tiny Networking",
            synopsis: "A whole networking layer in a few lines: resources as values and one load function."
        )
        let label = "POST /episodes"
        return await transcript.step(label) { [webservice, baseURL] in
            let created = try await webservice.load(Episode.create(draft, at: baseURL))
            guard created.title == draft.title, created.synopsis == draft.synopsis else {
                throw StepFailure("expected the draft's title and synopsis back, got \"\(created.title)\"")
            }
            if let last = episodes.map(\.number).max(), created.number <= last {
                throw StepFailure("expected a number after #\(last), got #\(created.number)")
            }
            return (created, "created #\(created.number) \"\(created.title)\" (id \(created.id))")
        }
    }

    private mutating func rename(_ episode: Episode?) async -> Episode? {
        guard let episode else {
            transcript.skip("PATCH /episodes/:id", because: "no episode was created")
            return nil
        }
        let title = "Tiny Networking, Revisited"
        let label = "PATCH \(episode.url.path)"
        return await transcript.step(label) { [webservice] in
            let updated = try await webservice.load(episode.update(EpisodePatch(title: title)))
            guard updated.title == title, updated.synopsis == episode.synopsis, updated.id == episode.id else {
                throw StepFailure("expected only the title to change, got \"\(updated.title)\"")
            }
            return (updated, "renamed to \"\(updated.title)\"")
        }
    }

    /// Loads a resource that must fail with an API error, and shows the `APIErrorBody` the resource decoded from the
    /// response, which `load` throws as `WebserviceError.serverError`.
    private mutating func expectFailure<A>(
        _ resource: Resource<A>,
        note: String = "",
        status: Int,
        code: String
    ) async {
        _ = await transcript.step(label(resource, note)) { [webservice] in
            do {
                _ = try await webservice.load(resource)
            } catch let error as WebserviceError {
                guard case .apiError(let apiError as APIErrorBody, let response) = error.reason else { throw error }
                let actual = response.statusCode
                guard actual == status, apiError.error == code else {
                    throw StepFailure("expected \(status) \(code), got \(actual) \(apiError.error): \(apiError.reason)")
                }
                return ((), "WebserviceError: \(actual) \(apiError.error) — \"\(apiError.reason)\"")
            }
            throw StepFailure("expected \(status) \(code), but the request succeeded")
        }
    }

    private mutating func showAccount() async {
        let account = Account.current(at: baseURL, token: "swift-talk-token")
        _ = await transcript.step(label(account)) { [webservice] in
            let account = try await webservice.load(account)
            return ((), "\(account.name) (\(account.subscriber ? "subscriber" : "not a subscriber"))")
        }
    }

    private mutating func delete(_ episode: Episode?) async {
        guard let episode else {
            return transcript.skip("DELETE /episodes/:id", because: "no episode was created")
        }
        let delete = episode.delete
        _ = await transcript.step(label(delete)) { [webservice] in
            try await webservice.load(delete)
            return ((), "deleted #\(episode.number) \"\(episode.title)\"")
        }
    }
}

/// Counts the progress reports of a transfer and keeps the last.
private final class Reports: Sendable {
    private let reports = Mutex((count: 0, last: TransferProgress?.none))

    func add(_ progress: TransferProgress) {
        reports.withLock { $0 = ($0.count + 1, progress) }
    }

    /// The count of reports so far and the last one, starting again.
    func take() -> (count: Int, last: TransferProgress?) {
        reports.withLock { reports in
            defer { reports = (0, nil) }
            return reports
        }
    }
}
