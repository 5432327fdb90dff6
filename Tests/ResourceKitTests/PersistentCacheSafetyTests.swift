import Foundation
import ResourceKit
import ResourceKitTesting
import Testing

@testable import ResourceKitBuiltIns
@testable import ResourceKitCore
@testable import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A persistent cache's file that isn't whole and intact is dropped, never parsed: the load goes to the network.
@Suite struct CorruptCacheFileTests {
    private let server = CountingServer()
    private let folder = CacheFolder()

    /// What happens to the file of the entry for `…/a` while the cache is closed.
    enum Corruption: String, CaseIterable {
        case empty, truncatedHead, truncatedBody, extraByte, wrongMagic, wrongVersion, sealedVersion,
            flippedChecksumByte
        case flippedKeyByte, flippedBodyByte, hugeMetadataLength, hugeBodyLength, renamedFromAnotherEntry

        /// Corrupts `a`, the file of `…/a`, where `b` is the file of `…/b`.
        func apply(a: URL, b: URL) throws {
            var bytes = [UInt8](try Data(contentsOf: a))
            switch self {
            case .empty: bytes = []
            case .truncatedHead: bytes = Array(bytes.prefix(20))
            case .truncatedBody: bytes.removeLast()
            case .extraByte: bytes.append(0)
            case .wrongMagic: bytes[0] ^= 0xFF
            case .wrongVersion: bytes[4] ^= 0xFF
            case .sealedVersion: bytes[4] = 4  // the version whose head was sealed, written before
            case .flippedChecksumByte: bytes[12] ^= 0x01
            case .flippedKeyByte: bytes[CacheFile.headLength + 10] ^= 0x01
            case .flippedBodyByte: bytes[bytes.count - 1] ^= 0x01
            case .hugeMetadataLength: bytes.replaceSubrange(8..<12, with: [0xF0, 0xFF, 0xFF, 0xFF])
            case .hugeBodyLength:
                bytes.replaceSubrange(20..<28, with: [0xF0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
            case .renamedFromAnotherEntry:
                try FileManager.default.removeItem(at: a)
                try FileManager.default.moveItem(at: b, to: a)
                return
            }
            try Data(bytes).write(to: a)
        }
    }

    @Test(arguments: Corruption.allCases)
    func corruptFileIsDroppedAndTheLoadGoesToTheNetwork(_ corruption: Corruption) async throws {
        defer { folder.delete() }
        _ = try await folder.fill(["a"], server: server)
        let a = try #require(folder.entryFiles.first)
        _ = try await folder.fill(["b"], server: server)
        let b = try #require(folder.entryFiles.first { $0 != a })
        try corruption.apply(a: folder.url.appendingPathComponent(a), b: folder.url.appendingPathComponent(b))
        let service = try await folder.service(server: server)
        #expect(try await service.load(numbered("a")) == "3")
        #expect(try await service.load(numbered("a")) == "3")
        #expect(try await service.load(numbered("b")) == (corruption == .renamedFromAnotherEntry ? "4" : "2"))
        #expect(folder.entryFiles == [a, b].sorted())
    }

    @Test func everyFlippedByteIsDetected() throws {
        defer { folder.delete() }
        let (key, entry) = try sample(body: Data("a body".utf8))
        do {
            var storage = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
            storage.insert(entry, for: key)
        }
        let name = try #require(folder.entryFiles.first)
        let file = folder.url.appendingPathComponent(name)
        let original = [UInt8](try Data(contentsOf: file))
        var served: [Int] = []
        for offset in original.indices {
            var bytes = original
            bytes[offset] ^= 0x01
            try Data(bytes).write(to: file)
            var storage = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
            if storage.entry(for: key) != nil { served.append(offset) }
            #expect(storage.count == 0)
            #expect(folder.entryFiles.isEmpty)
        }
        #expect(served == [])
    }

    @Test func fifoUnderAnEntrysNameIsDroppedWithoutWaitingForAWriter() async throws {
        defer { folder.delete() }
        _ = try await folder.fill(["a"], server: server)
        let service = try await folder.service(server: server)
        let path = folder.url.appendingPathComponent(try #require(folder.entryFiles.first)).path
        try #require(unlink(path) == 0 && mkfifo(path, 0o600) == 0)
        // On a regression the load waits in open(2) for a writer: one comes after 10 s, so the test fails, not hangs.
        let writer = Task.detached {
            guard (try? await Task.sleep(for: .seconds(10))) != nil else { return }
            while !Task.isCancelled {
                let file = open(path, O_WRONLY | O_NONBLOCK)
                if file >= 0 {
                    close(file)
                    return
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { writer.cancel() }
        let start = ContinuousClock.now
        #expect(try await service.load(numbered("a")) == "2")
        #expect(ContinuousClock.now - start < .seconds(10), "the load waited for a writer to the FIFO")
        #expect(folder.entryFiles.count == 1)
    }

    @Test func forgedFileWithRightChecksumsNeverCrashes() async throws {
        // Every byte of the metadata set to other values, with its checksum made right again: what the parser sees
        // from a file made on purpose. In a child process, so that a crash fails this test alone.
        guard let child = try await ChildProcess.run("forged", { try forgeEveryMetadataByte() }) else { return }
        #expect(child.exitedNormally, "\(child.output)")
        #expect(child.result?.hasPrefix("forged ") == true, "\(child.output)")
    }

    /// Opens a cache on each forged variant of one entry's file and looks the entry up; returns how many it served.
    private func forgeEveryMetadataByte() throws -> String {
        defer { folder.delete() }
        let (key, entry) = try sample(body: Data("a body".utf8))
        do {
            var storage = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
            storage.insert(entry, for: key)
        }
        let file = folder.url.appendingPathComponent(try #require(folder.entryFiles.first))
        let original = [UInt8](try Data(contentsOf: file))
        var variants = 0
        var served = 0
        for offset in CacheFile.headLength..<original.count - entry.response.body.count {
            for value in [0x00, 0xFF, 0x7F, original[offset] ^ 0x80] as [UInt8] where value != original[offset] {
                var bytes = original
                bytes[offset] = value
                let metadata = bytes[CacheFile.headLength..<bytes.count - entry.response.body.count]
                let checksum = xxh64(Array(metadata))
                bytes.replaceSubrange(12..<20, with: (0..<8).map { UInt8(truncatingIfNeeded: checksum >> ($0 * 8)) })
                try Data(bytes).write(to: file)
                var storage = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
                if storage.entry(for: key) != nil { served += 1 }
                variants += 1
            }
        }
        return "forged \(variants) variants, \(served) served"
    }
}

/// What a persistent cache's directory shows a reader: no credential of a request or a response, in any file.
@Suite struct CacheSecrecyTests {
    private let folder = CacheFolder()

    @Test func redirectTargetsCredentialsAreNeverOnDiskAndTheStoredResponseStillAnswers() async throws {
        defer { folder.delete() }
        let server = RedirectingServer()
        let request = CacheFolder.request("old")
        let resource = Resource<Data>(url: request.url, parse: { $0 })
        do {
            let service = Webservice(transport: server, cache: try await folder.cache())
            #expect(try await service.load(resource) == Data("redirected".utf8))
        }

        let onDisk = try secrets(RedirectingServer.secretForms, foundIn: folder.url)
        #expect(onDisk == [])
        let cache = try await folder.cache()
        let found = try #require(await cache.lookup(request).found)
        let served = found.response.response
        #expect(served.statusCode == 200)
        #expect(served.body.data == Data("redirected".utf8))
        let masked = "https://REDACTED@b.example/hidden-place/file?access_token=REDACTED&token=REDACTED&page=1"
        #expect(served.url?.absoluteString == masked)
        #expect(served.value(forHTTPHeaderField: "Content-Location") == masked)
        #expect(served.value(forHTTPHeaderField: "ETag") == "\"v1\"")
        #expect(served.value(forHTTPHeaderField: "X-Total-Count") == "42")
        #expect(served.value(forHTTPHeaderField: "X-Auth-Token") == nil)
        // A relative link still resolves against the masked URL's path.
        let link = try #require(served.value(forHTTPHeaderField: "Link"))
        #expect(
            try LinkHeader.target(of: "next", in: link, relativeTo: found.response.url)?.absoluteString
                == "https://REDACTED@b.example/hidden-place/page-2?access_token=REDACTED")
        #expect(
            try LinkHeader.target(of: "last", in: link, relativeTo: found.response.url)?.absoluteString
                == masked + "&last=1")
        #expect(try await Webservice(transport: server, cache: cache).load(resource) == Data("redirected".utf8))
        #expect(await server.requests.all.count == 1)
    }

    /// A response that echoes its request's own credentials, a header value and a query value, in a field of a
    /// harmless name and in its redirect's target path, holds none of them on disk.
    @Test func theRequestsOwnCredentialsEchoedByItsResponseAreNeverOnDisk() async throws {
        defer { folder.delete() }
        let (header, query) = ("h3ader-s3cret-5150", "qu3ry-s3cret-7788")
        let url = try #require(URL(string: "https://a.example/feed?api_key=\(query)"))
        let resource = Resource<Data>(url: url, headers: ["X-Session": header], parse: { $0 })
        let echoing = EchoingServer(
            target: try #require(URL(string: "https://a.example/users/\(header)/feed?q=\(query)")),
            note: "session \(header), key \(query)")
        do {
            let service = Webservice(transport: echoing, cache: try await folder.cache())
            #expect(try await service.load(resource) == Data("echoed".utf8))
        }
        #expect(try secrets([header, query], foundIn: folder.url) == [])
        let found = try #require(await folder.cache().lookup(Request(resource: resource)).found)
        #expect(found.response.response.value(forHTTPHeaderField: "X-Note") == "session REDACTED, key REDACTED")
    }
}

/// A transport that followed a redirect to `target` for every request, and answers with `note` in a field of a
/// harmless name, fresh for an hour.
private struct EchoingServer: WholeTransport {
    let target: URL
    let note: String

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        let headers = ["Cache-Control": "max-age=3600", "X-Note": note]
        guard let response = HTTPURLResponse(url: target, statusCode: 200, httpVersion: nil, headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return (Data("echoed".utf8), response)
    }
}

/// A transport that followed a redirect to ``target`` for every request: its response has that URL, with credentials
/// in its user information and query, header fields that repeat them, and is fresh for an hour.
private struct RedirectingServer: WholeTransport {
    let requests = Notes<Request>()

    /// The redirect's target: a user and password, two credential query items and one that isn't.
    static let target = URL(
        string: "https://user-of-b:pass%2Fof-b@b.example/hidden-place/file"
            + "?access_token=SECRET%2Ft0ken-4242&token=0ther-t0ken-77&page=1")!

    /// The credentials the response carries, decoded.
    static let secrets = ["user-of-b", "pass/of-b", "SECRET/t0ken-4242", "0ther-t0ken-77", "h3ader-t0ken-99"]

    /// Each of ``secrets`` as it is, percent-encoded in either case and in base64, and the user and password as a
    /// `Basic` credential: what a file must hold none of.
    static var secretForms: [String] {
        let unreserved = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let encoded = secrets.compactMap { $0.addingPercentEncoding(withAllowedCharacters: unreserved) }
        let base64 = (secrets + ["user-of-b:pass/of-b"]).map { Data($0.utf8).base64EncodedString() }
        return Array(Set(secrets + encoded + encoded.map { $0.lowercased() } + base64))
    }

    func answer(_ request: Request) async throws -> (Data, URLResponse) {
        await requests.append(request)
        let target = Self.target.absoluteString
        let headers = [
            "Cache-Control": "max-age=3600", "ETag": "\"v1\"", "X-Total-Count": "42", "X-Auth-Token": "h3ader-t0ken-99",
            "Link": "<page-2?access_token=SECRET%2Ft0ken-4242>; rel=\"next\", <\(target)&last=1>; rel=\"last\"",
            "Content-Location": target,
            "Location": "https://user-of-b:pass%2Fof-b@b.example/elsewhere?token=0ther-t0ken-77",
        ]
        guard let response = HTTPURLResponse(url: Self.target, statusCode: 200, httpVersion: nil, headerFields: headers)
        else { throw URLError(.badServerResponse) }
        return (Data("redirected".utf8), response)
    }
}

/// A persistent cache's directory that the group or others could write before the cache opened it: anything in it may
/// have been planted by another user, so nothing in it is used.
@Suite struct SharedCacheDirectoryTests {
    private let server = CountingServer()
    private let folder = CacheFolder()

    /// Who planted the files: another user where the test may give a file away (as root), else the user, with the
    /// files open to everyone.
    static let planters: [uid_t] = geteuid() == 0 ? [geteuid(), 65_534] : [geteuid()]

    @Test(arguments: planters)
    func saltAndEntriesPlantedInADirectoryOthersCouldWriteAreNeverServed(planter: uid_t) async throws {
        let planted = CacheFolder()
        defer {
            folder.delete()
            planted.delete()
        }
        // The planter's own cache, whose salt it knows, holds its answer for `…/a`.
        _ = try await planted.fill(["a"], server: CountingServer())
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        #expect(chmod(folder.url.path, 0o777) == 0)
        for name in try files(in: planted.url) {
            let copy = folder.url.appendingPathComponent(name)
            try FileManager.default.copyItem(at: planted.url.appendingPathComponent(name), to: copy)
            #expect(chown(copy.path, planter, planter) == 0 && chmod(copy.path, 0o666) == 0)
        }
        let plantedSalt = try Data(contentsOf: folder.salt)

        let service = try await folder.service(server: server)

        #expect(try await service.load(numbered("a")) == "1")
        #expect(await server.count == 1, "a planted entry answered")
        #expect(folder.permissions(of: folder.url) == 0o700)
        #expect(try Data(contentsOf: folder.salt) != plantedSalt)
        #expect(ownership(of: folder.salt).map { [UInt32($0.owner), UInt32($0.mode)] } == [geteuid(), 0o600])
        #expect(folder.entryFiles.count == 1)
    }

    /// A link at the cache directory's name, which another user could put in a shared parent, leading to a directory
    /// of this user's: the cache refuses it, and neither makes the directory its own nor empties it.
    @Test func aLinkAtTheDirectorysNameIsRefusedAndItsTargetLeftAlone() throws {
        let target = CacheFolder()
        defer {
            folder.delete()
            target.delete()
        }
        try FileManager.default.createDirectory(at: target.url, withIntermediateDirectories: true)
        #expect(chmod(target.url.path, 0o755) == 0)
        let kept = target.url.appendingPathComponent("0123456789abcdef-0123456789abcdef")
        try Data("mine".utf8).write(to: kept)
        try FileManager.default.createDirectory(
            at: folder.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.url, withDestinationURL: target.url)

        #expect(throws: CocoaError.self) { try ResponseCache(directory: folder.url, byteLimit: 1_000_000) }

        #expect(target.permissions(of: target.url) == 0o755)
        #expect(try Data(contentsOf: kept) == Data("mine".utf8))
    }
}

/// A process killed while it writes to a persistent cache leaves no entry that the next one serves wrong.
@Suite struct CacheCrashTests {
    /// The entries the writer stores, over and over.
    static let entries = 1_000

    @Test func processKilledWhileWritingLeavesNoCorruptEntry() async throws {
        var report: [String] = []
        for run in 1...10 {
            let folder = CacheFolder()
            defer { folder.delete() }
            // Killed once the directory holds a random number of entries, then a random moment later.
            let filesBeforeKill = Int.random(in: 1...400)
            let delay = Double.random(in: 0...0.3)
            let kill: @Sendable () async -> Void = {
                var polls = 0
                while folder.entryFiles.count < filesBeforeKill, polls < 6_000 {
                    try? await Task.sleep(for: .milliseconds(10))
                    polls += 1
                }
                try? await Task.sleep(for: .seconds(delay))
            }
            let child = try await ChildProcess.run("writer", argument: folder.url.path, killedWhen: kill) {
                try await Self.writeForever(in: URL(fileURLWithPath: ChildProcess.argument ?? ""))
            }
            guard let child else { return }
            #expect(child.crashed, "the writer wasn't killed: \(child.output)")
            let temporary = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
                .filter { $0.hasPrefix(CacheDirectory.temporaryPrefix) }.count
            let (served, corrupt) = try await Self.loadEveryEntry(in: folder.url)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder.url.path).allSatisfy {
                    !$0.hasPrefix(".") || $0 == CacheFolder.saltName
                })
            #expect(corrupt == 0)
            #expect(served > 0)
            report.append("run \(run): \(served) served, \(corrupt) corrupt, \(temporary) temporary files left")
        }
        print("CacheCrashTests: " + report.joined(separator: "; "))
    }

    /// An entry whose modification time is out of the range of `Int64` nanoseconds is the oldest: the open neither
    /// traps nor counts it as the latest use.
    @Test(arguments: [10_413_792_000, -11_676_096_000])  // 2300-01-01 and 1600-01-01
    func entryUsedAfter2262OrBefore1677CountsAsTheOldest(seconds: Int) async throws {
        // A tmpfs keeps such a time as it is, where ext4 clamps it to 1901.
        let shared = URL(fileURLWithPath: "/dev/shm")
        let folder = CacheFolder(
            parent: FileManager.default.fileExists(atPath: shared.path) ? shared : .temporaryDirectory)
        defer { folder.delete() }
        let child = try await ChildProcess.run("time \(seconds)") {
            try await Self.openAfterUsing(folder, at: seconds)
        }
        guard let child else { return }
        #expect(child.exitedNormally, "\(child.output)")
        #expect(child.result == "a served, b dropped", "\(child.output)")
    }

    /// Stores `a` then `b`, sets `b`'s modification time to `seconds` since 1970, and opens the cache again with room
    /// for one entry; says which it serves.
    private static func openAfterUsing(_ folder: CacheFolder, at seconds: Int) async throws -> String {
        let size: Int
        let b: String
        do {
            let cache = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
            await cache.record(CacheFolder.response("a"), for: CacheFolder.request("a"), generation: 0)
            let a = folder.entryFiles
            size = await cache.byteCount
            await cache.record(CacheFolder.response("b"), for: CacheFolder.request("b"), generation: 0)
            b = try #require(folder.entryFiles.first { !a.contains($0) })
        }
        let time = timespec(tv_sec: seconds, tv_nsec: 0)
        let path = folder.url.appendingPathComponent(b).path
        try #require([time, time].withUnsafeBufferPointer { utimensat(AT_FDCWD, path, $0.baseAddress, 0) } == 0)
        let cache = try ResponseCache(directory: folder.url, byteLimit: size * 3 / 2)
        let a = await cache.lookup(CacheFolder.request("a")).found != nil
        let bServed = await cache.lookup(CacheFolder.request("b")).found != nil
        return "a \(a ? "served" : "dropped"), b \(bServed ? "served" : "dropped")"
    }

    /// Stores the ``entries`` again and again in a cache in `directory`, each time with another body, until the
    /// process is killed.
    private static func writeForever(in directory: URL) async throws -> String {
        let rounds = Rounds()
        let service = Webservice(
            transport: StubTransport.answering(
                .computed { request in
                    let index = Int(request.url.lastPathComponent) ?? -1
                    let body = Self.body(index: index, round: await rounds.next(index))
                    return .status(200, headers: ["Cache-Control": "max-age=3600"], body: body)
                }),
            cache: try ResponseCache(directory: directory, byteLimit: 8_000_000))
        while true {
            for index in 0..<entries {
                var resource = entry(index)
                resource.headers["Cache-Control"] = "no-cache"  // to the server each time, and stored again
                _ = try await service.load(resource)
            }
        }
    }

    /// Loads every entry from a cache opened on `directory`; returns how many the cache served and how many of those
    /// weren't a body written for their entry.
    private static func loadEveryEntry(in directory: URL) async throws -> (served: Int, corrupt: Int) {
        let service = Webservice(
            transport: StubTransport.answering(
                .status(200, headers: ["Cache-Control": "no-store"], body: Data("network".utf8))),
            cache: try ResponseCache(directory: directory, byteLimit: 8_000_000))
        var served = 0
        var corrupt = 0
        for index in 0..<entries {
            let body = try await service.load(entry(index))
            guard body != Data("network".utf8) else { continue }
            served += 1
            let round = body.firstIndex(of: 0x0A).flatMap { Int(String(decoding: body[..<$0], as: UTF8.self)) }
            if round.map({ Self.body(index: index, round: $0) }) != body { corrupt += 1 }
        }
        return (served, corrupt)
    }

    /// The resource of entry `index`, whose model is its body.
    private static func entry(_ index: Int) -> Resource<Data> {
        Resource(url: baseURL.appendingPathComponent(String(index)), parse: { $0 })
    }

    /// The body of entry `index` the `round`th time it is written: the round, a line feed, and 1 to 20 KB of bytes
    /// that only this entry and round have.
    static func body(index: Int, round: Int) -> Data {
        var generator = UInt64(truncatingIfNeeded: index &* 1_000_003 &+ round &* 7_919) | 1
        let length = 1_000 + Int(generator % 19_000)
        var bytes = [UInt8](String(round).utf8) + [0x0A]
        bytes.reserveCapacity(bytes.count + length)
        for _ in 0..<length {
            generator ^= generator << 13
            generator ^= generator >> 7
            generator ^= generator << 17
            bytes.append(UInt8(truncatingIfNeeded: generator))
        }
        return Data(bytes)
    }
}

/// Counts the rounds of each entry the crash test's writer stores.
private actor Rounds {
    private var rounds: [Int: Int] = [:]

    /// The round of this request for entry `index`, counting from 0.
    func next(_ index: Int) -> Int {
        defer { rounds[index, default: 0] += 1 }
        return rounds[index, default: 0]
    }
}

/// ``xxh64(_:seed:)`` against xxHash's published values.
@Suite struct XXH64Tests {
    @Test(
        arguments: [
            ("", 0xEF46_DB37_51D8_E999),
            ("abc", 0x44BC_2CF5_AD77_0999),
            ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),
        ] as [(String, UInt64)])
    func hashMatchesTheReference(_ text: String, _ expected: UInt64) {
        #expect(xxh64(Array(text.utf8)) == expected)
    }
}

/// ``sha256(_:)`` against the examples of FIPS 180-2, appendix B: a message, repeated some times, and its digest.
@Suite struct SHA256Tests {
    @Test(
        arguments: [
            ("abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            ("a", 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ] as [(String, Int, String)])
    func digestMatchesTheStandard(_ message: String, _ repeated: Int, _ expected: String) {
        let bytes = Array(String(repeating: message, count: repeated).utf8)
        #expect(sha256(bytes).map { String(format: "%02x", $0) }.joined() == expected)
    }
}

/// An entry for `…/sample` with `body`, and its key.
private func sample(body: Data) throws -> (ResponseCache.Key, ResponseCache.Entry) {
    let url = baseURL.appendingPathComponent("sample")
    let key = try #require(ResponseCache.Key(Request(url: url)))
    let response = Response(
        statusCode: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"1\""], body: body, url: url)
    let stored = try #require(ResponseCache.StoredResponse(response))
    return (key, ResponseCache.Entry(response: stored, stored: Date()))
}
