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

/// A ``ResponseCache`` in a directory: what one process stores, the next one serves, in the order of use.
///
/// Each test opens caches on a directory of its own, and "relaunches" by letting one cache go and opening another on
/// the same directory. The server answers each request with its number, so a repeated number is a stored response.
@Suite struct PersistentCacheTests {
    private let server = CountingServer()
    private let folder = CacheFolder()

    @Test func responseStoredBeforeARelaunchAnswersAfterIt() async throws {
        defer { folder.delete() }
        let headers = ["Cache-Control": "max-age=3600", "Content-Type": "text/plain", "ETag": "\"v1\""]
        do {
            let service = try await folder.service(server: server, status: 203, headers: headers)
            #expect(try await service.load(numbered()) == "1")
        }
        let service = try await folder.service(server: server, status: 203, headers: headers)
        let rejecting = numbered().map { _ -> String in throw CocoaError(.coderReadCorrupt) }
        let error = try await #require(throws: WebserviceError.self) { try await service.load(rejecting) }
        let response = try requireCase(\.parsing, of: error).response
        #expect(response.statusCode == 203)
        #expect(response.headers.count == headers.count)
        for (name, value) in headers { #expect(response.value(forHTTPHeaderField: name) == value) }
        #expect(
            String(decoding: response.body.data ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespaces) == "1")
        #expect(response.body.data?.count == 300)
        #expect(await server.count == 1)
    }

    @Test func leastRecentlyUsedResponseIsDroppedFirstAfterARelaunch() async throws {
        defer { folder.delete() }
        let size = try await folder.fill(["a", "b", "c"], server: server)
        do {
            // A use before the relaunch: b is now the least recently used.
            #expect(try await folder.service(server: server).load(numbered("a")) == "1")
        }
        let service = try await folder.service(server: server, byteLimit: size * 7 / 2)
        #expect(try await service.load(numbered("d")) == "4")
        #expect(await service.cache?.count == 3)
        #expect(try await service.load(numbered("a")) == "1")
        #expect(try await service.load(numbered("c")) == "3")
        #expect(try await service.load(numbered("d")) == "4")
        #expect(try await service.load(numbered("b")) == "5")
    }

    @Test func smallerLimitAtOpenDropsTheLeastRecentlyUsed() async throws {
        defer { folder.delete() }
        let size = try await folder.fill(["a", "b", "c"], server: server)
        do {
            #expect(try await folder.service(server: server).load(numbered("a")) == "1")
        }
        let service = try await folder.service(server: server, byteLimit: size * 5 / 2)
        #expect(await service.cache?.count == 2)
        #expect(await service.cache?.byteCount == size * 2)
        #expect(folder.entryFiles.count == 2)
        #expect(try await service.load(numbered("a")) == "1")
        #expect(try await service.load(numbered("c")) == "3")
        #expect(try await service.load(numbered("b")) == "4")
    }

    @Test func filesOnDiskStayWithinTheByteLimit() async throws {
        defer { folder.delete() }
        let size = try await folder.fill(["a"], server: server)
        let service = try await folder.service(server: server, byteLimit: size * 7 / 2)
        for path in ["b", "c", "d", "e", "f", "g"] { _ = try await service.load(numbered(path)) }
        #expect(await service.cache?.count == 3)
        #expect(await service.cache?.byteCount == size * 3)
        #expect(folder.entryFiles.count == 3)
        #expect(folder.entryFiles.reduce(0) { $0 + folder.size(of: $1) } == size * 3)
    }

    @Test func responseLargerThanTheLimitIsNotWritten() async throws {
        defer { folder.delete() }
        let service = try await folder.service(server: server, byteLimit: 300)
        #expect(try await service.load(numbered("a")) == "1")
        #expect(try await service.load(numbered("a")) == "2")
        #expect(folder.entryFiles.isEmpty)
    }

    @Test func removeAllDeletesEveryFile() async throws {
        defer { folder.delete() }
        let service = try await folder.service(server: server)
        for path in ["a", "b", "c"] { _ = try await service.load(numbered(path)) }
        #expect(folder.entryFiles.count == 3)
        try await service.cache?.removeAll()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [CacheFolder.saltName])
        #expect(await service.cache?.count == 0)
        #expect(await service.cache?.byteCount == 0)
        #expect(try await service.load(numbered("a")) == "4")
    }

    @Test func successfulPostDropsEveryVariantOfItsURLFromDisk() async throws {
        defer { folder.delete() }
        do {
            let service = try await folder.service(server: server)
            #expect(try await service.load(numbered("feed", headers: ["X-Variant": "1"])) == "1")
            #expect(try await service.load(numbered("feed", headers: ["X-Variant": "2"])) == "2")
            #expect(try await service.load(numbered("other")) == "3")
            _ = try await service.load(numbered("feed", method: .post(Data())))
            #expect(folder.entryFiles.count == 1)
        }
        let service = try await folder.service(server: server)
        #expect(try await service.load(numbered("feed", headers: ["X-Variant": "1"])) == "5")
        #expect(try await service.load(numbered("feed", headers: ["X-Variant": "2"])) == "6")
        #expect(try await service.load(numbered("other")) == "3")
    }

    @Test(.enabled(if: Immutable.isSupported, "needs chattr +i, which tmpfs and some other file systems lack"))
    func fileThatCantBeDeletedStaysCountedAndIsDeletedOnceItCanBe() async throws {
        defer { folder.delete() }
        let size = try await folder.fill(["a"], server: server)
        let a = folder.url.appendingPathComponent(try #require(folder.entryFiles.first))
        defer { Immutable.set(false, a) }
        try #require(Immutable.set(true, a))
        let service = try await folder.service(server: server, byteLimit: size * 7 / 2)
        for path in ["b", "c", "d", "e", "f"] { _ = try await service.load(numbered(path)) }
        #expect(folder.entryFiles.contains(a.lastPathComponent))
        #expect(folder.entryFiles.reduce(0) { $0 + folder.size(of: $1) } == size * 3)
        #expect(await service.cache?.byteCount == size * 3)
        Immutable.set(false, a)
        _ = try await service.load(numbered("g"))
        #expect(!folder.entryFiles.contains(a.lastPathComponent))
        #expect(folder.entryFiles.count == 3)
    }

    @Test func fileThatGrewSinceTheOpenMakesRoomWhenItIsRead() async throws {
        let other = CacheFolder()
        defer {
            folder.delete()
            other.delete()
        }
        let size = try await folder.fill(["a", "b", "c"], server: server)
        let service = try await folder.service(server: server, byteLimit: size * 4)
        // The entry for …/a with a body 900 bytes longer, from another cache, replaces the file of …/a.
        // The same salt, so that the other cache names and keys …/a the same.
        try FileManager.default.createDirectory(at: other.url, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: folder.salt, to: other.salt)
        _ = try await other.service(server: server, bodyLength: 1_200).load(numbered("a"))
        let name = try #require(other.entryFiles.first)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(name))
        try FileManager.default.copyItem(
            at: other.url.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        #expect(try await service.load(numbered("a")) == "4")
        #expect(await service.cache?.byteCount == size * 2 + 900)
        #expect(folder.entryFiles.count == 2)
        #expect(try await service.load(numbered("b")) == "5")
    }

    @Test func noCredentialNorCookieIsWrittenToTheDirectory() async throws {
        defer { folder.delete() }
        let secrets = ["Bearer s3cr3t-token-XYZ", "sid=abc123", "session=f00d", "theme=dark"]
        let headers = [
            "Cache-Control": "max-age=3600", "Set-Cookie": "session=f00d; HttpOnly", "Set-Cookie2": "theme=dark",
        ]
        let signedIn = ["Authorization": secrets[0], "Cookie": secrets[1]]
        do {
            let service = try await folder.service(server: server, headers: headers)
            #expect(try await service.load(numbered("a", headers: signedIn)) == "1")
        }
        #expect(folder.entryFiles.count == 1)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(name)") }
        }
        let service = try await folder.service(server: server, headers: headers)
        #expect(try await service.load(numbered("a", headers: signedIn)) == "1")
        #expect(try await service.load(numbered("a", headers: ["Authorization": "Bearer other"])) == "2")
    }

    @Test func noByteOfATokenInTheURLNorOfItsUserInformationIsWrittenToTheDirectory() async throws {
        defer { folder.delete() }
        let secrets = ["SECRET-t0ken-4242", "alice-the-user", "p4ssw0rd-of-alice"]
        let url = "https://alice-the-user:p4ssw0rd-of-alice@a.example/feed?access_token=SECRET-t0ken-4242&page=2"
        let request = try CacheFolder.request(url: url)
        do {
            let cache = try await folder.cache()
            await cache.record(try CacheFolder.response(url: url), for: request, generation: 0)
            #expect(await cache.count == 1)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) {
            #expect(!secrets.contains { name.contains($0) })
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            for secret in secrets { #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in \(name)") }
            #expect(bytes.range(of: Data("a.example".utf8)) == nil, "the host in \(name)")
        }
        let found = try #require(await folder.cache().lookup(request).found)
        #expect(found.response.url.absoluteString == url)
    }

    @Test func twoDirectoriesNameTheSameKeyDifferently() async throws {
        let other = CacheFolder()
        defer {
            folder.delete()
            other.delete()
        }
        for place in [folder, other] {
            await place.cacheRecording("a", try await place.cache())
        }
        let names = folder.entryFiles + other.entryFiles
        #expect(names.count == 2)
        #expect(Set(names).count == 2)
        // Neither part of the name is shared: the URL's digest is salted too.
        #expect(Set(names.map { $0.prefix(16) }).count == 2)
        #expect(try Data(contentsOf: folder.salt) != Data(contentsOf: other.salt))
    }

    @Test func saltIsKeptAcrossARelaunchSoEntriesAreFoundAgain() async throws {
        defer { folder.delete() }
        await folder.cacheRecording("a", try await folder.cache())
        let salt = try Data(contentsOf: folder.salt)
        #expect(salt.count == 32)
        #expect(folder.permissions(of: folder.salt) == 0o600)
        let cache = try await folder.cache()
        #expect(await cache.count == 1)
        #expect(await cache.lookup(CacheFolder.request("a")).found != nil)
        #expect(try Data(contentsOf: folder.salt) == salt)
    }

    /// What happens to the salt file while the cache is closed.
    enum SaltDamage: String, CaseIterable {
        case missing, short, long, symbolicLink
    }

    @Test(arguments: SaltDamage.allCases)
    func invalidSaltIsReplacedAndEveryEntryDropped(_ damage: SaltDamage) async throws {
        defer { folder.delete() }
        let outside = folder.url.deletingLastPathComponent().appendingPathComponent("salt-outside")
        await folder.cacheRecording("a", try await folder.cache())
        await folder.cacheRecording("b", try await folder.cache())
        let salt = try Data(contentsOf: folder.salt)
        switch damage {
        case .missing: try FileManager.default.removeItem(at: folder.salt)
        case .short: try salt.prefix(31).write(to: folder.salt)
        case .long: try (salt + [0]).write(to: folder.salt)
        case .symbolicLink:
            // The same 32 bytes, but behind a link: not followed, so not read.
            try salt.write(to: outside)
            try FileManager.default.removeItem(at: folder.salt)
            try FileManager.default.createSymbolicLink(at: folder.salt, withDestinationURL: outside)
        }
        do {
            let cache = try await folder.cache()
            #expect(await cache.count == 0)
            #expect(folder.entryFiles.isEmpty)
            #expect(await cache.lookup(CacheFolder.request("a")).found == nil)
            await folder.cacheRecording("a", cache)
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.salt.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: folder.salt).count == 32)
        #expect(try Data(contentsOf: folder.salt) != salt)
        #expect(folder.permissions(of: folder.salt) == 0o600)
        if damage == .symbolicLink { #expect(try Data(contentsOf: outside) == salt) }
        #expect(try await folder.cache().lookup(CacheFolder.request("a")).found != nil)
    }

    @Test func removeAllReplacesTheSalt() async throws {
        defer { folder.delete() }
        let cache = try await folder.cache()
        await folder.cacheRecording("a", cache)
        let salt = try Data(contentsOf: folder.salt)
        let name = try #require(folder.entryFiles.first)
        try await cache.removeAll()
        let newSalt = try Data(contentsOf: folder.salt)
        #expect(newSalt.count == 32)
        #expect(newSalt != salt)
        await folder.cacheRecording("a", cache)
        #expect(folder.entryFiles.count == 1)
        #expect(folder.entryFiles.first != name)
        #expect(await cache.lookup(CacheFolder.request("a")).found != nil)
    }

    @Test(arguments: [false, true])
    func setCookieIsNeverStored(onDisk: Bool) async throws {
        defer { folder.delete() }
        let cache =
            onDisk ? try await folder.cache() : ResponseCache(byteLimit: 1_000_000)
        let cookies = ["Set-Cookie": "session=f00d", "set-cookie2": "theme=dark", "ETag": "\"1\""]
        await cache.record(CacheFolder.response("a", headers: cookies), for: CacheFolder.request("a"), generation: 0)
        let found = try #require(await cache.lookup(CacheFolder.request("a")).found)
        #expect(found.response.headers == ["Cache-Control": "max-age=3600", "ETag": "\"1\""])
    }
}

/// The directory of a persistent cache: private to the user, cleaned of what a crash left, and used by one cache at a
/// time.
@Suite struct CacheDirectoryTests {
    private let server = CountingServer()
    private let folder = CacheFolder()

    @Test func directoryAndFilesArePrivateToTheUser() async throws {
        defer { folder.delete() }
        _ = try await folder.service(server: server).load(numbered())
        #expect(folder.permissions(of: folder.url) == 0o700)
        let files = folder.entryFiles
        #expect(files.count == 1)
        for file in files { #expect(folder.permissions(of: folder.url.appendingPathComponent(file)) == 0o600) }
    }

    @Test func temporaryFilesACrashLeftAreDeletedAtOpenAndOtherFilesKept() async throws {
        defer { folder.delete() }
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        try Data("half an entry".utf8).write(to: folder.url.appendingPathComponent(".resourcekit-tmp-0123456789abcdef"))
        let others = [".resourcekit-tmp-notes", ".tmp-editor-swap", "notes.txt"]
        for name in others { try Data("the caller's".utf8).write(to: folder.url.appendingPathComponent(name)) }
        _ = try await folder.cache()
        #expect(try files(in: folder.url) == [CacheFolder.saltName] + others)
    }

    @Test func aCachesWorkAndItsFileIORunOnItsOwnQueueOffTheCooperativePool() async throws {
        defer { folder.delete() }
        let cache = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
        #expect(await cache.runsOnItsQueue)
        await folder.cacheRecording("a", cache)
        #expect(await cache.lookup(CacheFolder.request("a")).found != nil)
        #expect(await ResponseCache(byteLimit: 1_000).runsOnItsQueue)
    }

    @Test func aReleasedCachesDirectoryOpensAgainAtOnceWhileItsBackgroundRevalidationHangs() async throws {
        defer { folder.delete() }
        let gate = Gate()
        let resource = Resource(url: baseURL.appendingPathComponent("feed")) { String(decoding: $0, as: UTF8.self) }
        do {
            let server = server
            let service = Webservice(
                transport: StubTransport.answering(
                    .computed { request in
                        // The revalidation never gets an answer, and its wait ignores cancellation.
                        if await server.answer(request) > 1 { try await gate.pass("revalidation") }
                        let headers = ["Cache-Control": "max-age=0, stale-while-revalidate=600"]
                        return .status(200, headers: headers, body: Data("stored".utf8))
                    }),
                cache: try ResponseCache(directory: folder.url, byteLimit: 1_000_000))
            #expect(try await service.load(resource) == "stored")
            #expect(try await service.load(resource) == "stored")
            try await eventually("the background revalidation was sent") { await gate.started.count == 1 }
        }
        // No retry: the cache is gone as soon as its web service is, its revalidation cancelled.
        let reopened = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
        let offline = Webservice(transport: StubTransport.answering(.status(503)), cache: reopened)
        var stored = resource
        stored.cachePolicy = .storedOnly
        #expect(try await offline.load(stored) == "stored")
        await gate.open("revalidation")
    }

    @Test func existingDirectoryOpenToOthersIsMadePrivate() throws {
        defer { folder.delete() }
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        #expect(chmod(folder.url.path, 0o777) == 0)
        _ = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
        #expect(folder.permissions(of: folder.url) == 0o700)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func directoryOfAnotherUserThrows() throws {
        defer { folder.delete() }
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        #expect(chown(folder.url.path, 4242, 4242) == 0 && chmod(folder.url.path, 0o777) == 0)
        let error = try #require(throws: CocoaError.self) {
            try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
        }
        #expect(error.localizedDescription.contains("belongs to another user"))
        #expect(folder.permissions(of: folder.url) == 0o777)
    }

    @Test(.enabled(if: Immutable.isSupported, "needs chattr +i, which tmpfs and some other file systems lack"))
    func responseRemoveAllCouldntDeleteIsNotServedAfterARelaunch() async throws {
        defer { folder.delete() }
        defer { Immutable.set(false, folder.url) }
        do {
            let service = try await folder.service(server: server)
            #expect(try await service.load(numbered("me")) == "1")
            // An immutable directory: its files can't be deleted, but can be written.
            try #require(Immutable.set(true, folder.url))
            await #expect(throws: CocoaError.self) { try await service.cache?.removeAll() }
            #expect(try await service.load(numbered("me")) == "2")
        }
        let service = try await folder.service(server: server)
        #expect(try await service.load(numbered("me")) == "3")
    }

    @Test func linkUnderAnEntrysNameIsNotFollowed() async throws {
        defer { folder.delete() }
        _ = try await folder.service(server: server).load(numbered())
        let name = try #require(folder.entryFiles.first)
        let target = folder.url.deletingLastPathComponent().appendingPathComponent("target")
        try FileManager.default.moveItem(at: folder.url.appendingPathComponent(name), to: target)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent(name), withDestinationURL: target)
        let service = try await folder.service(server: server)
        #expect(await service.cache?.count == 0)
        #expect(try await service.load(numbered()) == "2")
        #expect(FileManager.default.fileExists(atPath: target.path))
    }

    @Test func secondCacheOnTheSameDirectoryThrowsUntilTheFirstIsGone() throws {
        defer { folder.delete() }
        do {
            let first = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
            let error = try #require(throws: CocoaError.self) {
                try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
            }
            #expect(error.code == .fileLocking)
            #expect(error.localizedDescription.contains("Another ResponseCache"))
            withExtendedLifetime(first) {}
        }
        _ = try ResponseCache(directory: folder.url, byteLimit: 1_000_000)
    }

    /// A child process started while a cache was open holds a copy of its directory's descriptor until it execs, or
    /// for good if it never does: once the cache is gone, the directory opens again all the same.
    @Test func directoryOpensAgainWhileAChildStillHoldsACopyOfTheClosedCachesDescriptor() throws {
        defer { folder.delete() }
        var child: pid_t = 0
        defer {
            if child > 0 {
                kill(child, SIGKILL)
                waitpid(child, nil, 0)
            }
        }
        do {
            let storage = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
            try withExtendedLifetime(storage) { child = try spawnHoldingACopy(of: folder.url) }
        }
        let reopened = try DiskStorage(directory: folder.url, byteLimit: 1_000_000)
        #expect(throws: CocoaError.self) { try DiskStorage(directory: folder.url, byteLimit: 1_000_000) }
        withExtendedLifetime(reopened) {}
    }

    @Test func removeAllDeletesWhatItCanThenThrowsNamingWhatItCant() async throws {
        defer { folder.delete() }
        let service = try await folder.service(server: server)
        for path in ["a", "b"] { _ = try await service.load(numbered(path)) }
        // A directory under an entry's name: unlink(2) can't delete it.
        let stuck = "0123456789abcdef-0123456789abcdef"
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent(stuck), withIntermediateDirectories: false)
        let error = try await #require(throws: CocoaError.self) { try await service.cache?.removeAll() }
        #expect(error.localizedDescription.contains(stuck))
        #expect(try files(in: folder.url) == [CacheFolder.saltName, stuck])
        #expect(await service.cache?.count == 0)
        #expect(try await service.load(numbered("a")) == "3")
    }

    @Test func directoryThatCantBeCreatedThrows() throws {
        defer { folder.delete() }
        try FileManager.default.createDirectory(
            at: folder.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: folder.url)  // a file where the directory should be
        #expect(throws: CocoaError.self) { try ResponseCache(directory: folder.url, byteLimit: 1_000_000) }
    }
}

/// A folder of its own for a test's cache, under the temporary directory or `parent`, with what tests check in it.
struct CacheFolder {
    /// The cache's directory, which doesn't exist yet.
    let url: URL

    init(parent: URL = FileManager.default.temporaryDirectory) {
        url = parent.appendingPathComponent("resourcekit-disk-\(UUID().uuidString)").appendingPathComponent("cache")
    }

    /// The name of the file that holds a cache directory's salt.
    static let saltName = ".resourcekit-salt"

    /// The salt file in the directory.
    var salt: URL { url.appendingPathComponent(Self.saltName) }

    /// A `GET` request for `url`, as a cache receives it.
    static func request(url: String) throws -> Request {
        Request(url: try #require(URL(string: url)))
    }

    /// A fresh response with a body of 300 bytes, whose URL is `url`.
    static func response(url: String) throws -> ResponseCache.StoredResponse {
        let target: URL = try #require(URL(string: url))
        let response = Response(
            statusCode: 200, headers: ["Cache-Control": "max-age=3600"], body: Data(repeating: 0x61, count: 300),
            url: target)
        return try #require(ResponseCache.StoredResponse(response))
    }

    /// Records ``response(_:headers:)`` for `…/path` in `cache`, under its current generation.
    func cacheRecording(_ path: String, _ cache: ResponseCache) async {
        let generation = await cache.lookup(Self.request(path)).generation
        await cache.record(Self.response(path), for: Self.request(path), generation: generation)
    }

    /// A `GET` request for `…/path` with `headers`, as a cache receives it.
    static func request(_ path: String, headers: [String: String] = [:]) -> Request {
        var request = Request(url: baseURL.appendingPathComponent(path))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// A fresh response for `…/path` with `headers` besides its `Cache-Control`, and a body of 300 bytes.
    static func response(_ path: String, headers: [String: String] = [:]) -> ResponseCache.StoredResponse {
        let response = Response(
            statusCode: 200, headers: headers.merging(["Cache-Control": "max-age=3600"]) { $1 },
            body: Data(repeating: 0x61, count: 300), url: baseURL.appendingPathComponent(path))
        return ResponseCache.StoredResponse(response)!
    }

    /// A web service with a cache in this folder, whose server answers `status` with `headers` and its number padded
    /// to `bodyLength` bytes.
    func service(
        server: CountingServer,
        byteLimit: Int = 1_000_000,
        status: Int = 200,
        headers: [String: String] = ["Cache-Control": "max-age=3600"],
        bodyLength: Int = 300
    ) async throws -> Webservice {
        Webservice(
            transport: StubTransport.answering(
                .computed { request in
                    let number = String(await server.answer(request))
                    let body = number.padding(toLength: bodyLength, withPad: " ", startingAt: 0)
                    return .status(status, headers: headers, body: Data(body.utf8))
                }),
            cache: try await cache(byteLimit: byteLimit))
    }

    /// A cache in this folder, opened once the one before it, which a load's last task may still hold for a moment,
    /// has gone: a relaunch within the test process.
    func cache(byteLimit: Int = 1_000_000) async throws -> ResponseCache {
        for _ in 0..<500 {
            do {
                return try ResponseCache(directory: url, byteLimit: byteLimit)
            } catch let error as CocoaError where error.code == .fileLocking {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return try ResponseCache(directory: url, byteLimit: byteLimit)
    }

    /// Stores responses for `paths`, one after the other, in a cache that closes again; returns the bytes each takes.
    func fill(_ paths: [String], server: CountingServer) async throws -> Int {
        let service = try await service(server: server)
        for path in paths { _ = try await service.load(numbered(path)) }
        return await (service.cache?.byteCount ?? 0) / paths.count
    }

    /// The names of the entries' files.
    var entryFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The size of the file `name` in the directory.
    func size(of name: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(name).path)
        return (attributes?[.size] as? Int) ?? -1
    }

    /// The permission bits of the file or directory at `url`.
    func permissions(of url: URL) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes?[.posixPermissions] as? Int) ?? -1
    }

    /// Deletes the folder.
    func delete() {
        try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
    }
}

/// Makes files and directories immutable with `chattr`, which only some file systems support (ext4 does, tmpfs not).
enum Immutable {
    /// Whether `chattr +i` works in the temporary directory, and this process may use it.
    static let isSupported: Bool = {
        let folder = CacheFolder()
        defer { folder.delete() }
        guard (try? FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)) != nil,
            set(true, folder.url)
        else { return false }
        return set(false, folder.url)
    }()

    /// Sets or clears the immutable attribute of `url`; `false` when `chattr` fails.
    @discardableResult
    static func set(_ immutable: Bool, _ url: URL) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [immutable ? "+i" : "-i", url.path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

/// The resource for `…/path`, whose model is the server's answer number.
func numbered(
    _ path: String = "feed",
    method: HTTPMethod<Data> = .get,
    headers: [String: String] = [:]
) -> Resource<String> {
    Resource(url: baseURL.appendingPathComponent(path), method: method, headers: headers) { data in
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}

/// The issue's figures for a persistent cache of 10 000 entries of 2 KB: writing them, reopening the directory (its
/// wall time and the process's peak memory), and a lookup from disk against one from memory.
///
/// Not a timed assertion: it prints the figures, and runs only with `RESOURCEKIT_MEASURE_DISK_CACHE=1`. The writing
/// and the reopening each run in a fresh child process, so that the peak memory is the reopen's alone.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["RESOURCEKIT_MEASURE_DISK_CACHE"] != nil))
struct PersistentCacheMeasurements {
    static let entries = 10_000

    @Test func tenThousandEntriesWrittenAndReopened() async throws {
        let folder = CacheFolder()
        defer { folder.delete() }
        let path = folder.url.path
        // In a child, each call runs its work only if it is the child's case.
        let written = try await ChildProcess.run("write", argument: path) { try await Self.write() }
        let reopened = try await ChildProcess.run("reopen", argument: path) { try await Self.reopen() }
        guard let written, let reopened else { return }
        #expect(written.exitedNormally, "\(written.output)")
        #expect(reopened.exitedNormally, "\(reopened.output)")
        print("PersistentCacheMeasurements: \(written.result ?? "-"); \(reopened.result ?? "-")")
    }

    /// A web service whose server answers every request with a fresh 2 KB body, and whose cache is `cache`.
    private static func service(_ cache: ResponseCache) -> Webservice {
        let body = Data(repeating: 0x61, count: 2_048)
        return Webservice(
            transport: StubTransport.answering(.status(200, headers: ["Cache-Control": "max-age=3600"], body: body)),
            cache: cache)
    }

    /// The resource of entry `index`.
    private static func entry(_ index: Int) -> Resource<Data> {
        Resource(url: baseURL.appendingPathComponent(String(index)), parse: { $0 })
    }

    /// Stores the entries in the cache in the child's directory.
    private static func write() async throws -> String {
        let directory = URL(fileURLWithPath: ChildProcess.argument ?? "")
        let cache = try ResponseCache(directory: directory, byteLimit: 100_000_000)
        let service = service(cache)
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            for index in 0..<entries { _ = try await service.load(entry(index)) }
        }
        let bytes = await cache.byteCount
        return "wrote \(entries) entries (\(bytes) bytes of files) in \(elapsed)"
    }

    /// Reopens the cache in the child's directory and looks entries up, from disk and then from a cache in memory.
    private static func reopen() async throws -> String {
        let directory = URL(fileURLWithPath: ChildProcess.argument ?? "")
        let clock = ContinuousClock()
        let before = processMemory("VmHWM")
        let start = clock.now
        let cache = try ResponseCache(directory: directory, byteLimit: 100_000_000)
        let opening = clock.now - start
        let afterOpen = processMemory("VmHWM")
        let offline = Webservice(
            transport: StubTransport.answering(.failure(.notConnectedToInternet)), cache: cache)
        let count = await cache.count
        let first = try await clock.measure { _ = try await offline.load(entry(4_321)) }
        let indices = (0..<1_000).map { _ in Int.random(in: 0..<entries) }
        let disk = try await clock.measure { for index in indices { _ = try await offline.load(entry(index)) } }
        let memory = service(ResponseCache(byteLimit: 100_000_000))
        for index in indices { _ = try await memory.load(entry(index)) }
        let inMemory = try await clock.measure { for index in indices { _ = try await memory.load(entry(index)) } }
        return "reopened \(count) entries in \(opening), peak memory \(before ?? 0) kB before opening, "
            + "\(afterOpen ?? 0) kB after, \(processMemory("VmHWM") ?? 0) kB after the lookups; first lookup \(first), "
            + "1 000 random lookups from disk \(disk), the same from memory \(inMemory)"
    }
}

/// A field of `/proc/self/status` in kB, such as `VmHWM` (the most resident memory yet); `nil` without that file.
func processMemory(_ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
    return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
}

/// Starts `sleep` with a copy of this process's descriptor of the directory `url`, as a child forked while it is open
/// has until it execs; returns the child's process ID.
private func spawnHoldingACopy(of url: URL) throws -> pid_t {
    var directory = stat()
    try #require(stat(url.path, &directory) == 0)
    // The descriptor the cache opened, found by its device and inode.
    let descriptor = try #require(
        (0..<Int32(4_096)).first { fd in
            var status = stat()
            return fstat(fd, &status) == 0 && status.st_dev == directory.st_dev && status.st_ino == directory.st_ino
        })
    #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
    #else
        var actions = posix_spawn_file_actions_t()
    #endif
    try #require(posix_spawn_file_actions_init(&actions) == 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 leaves the copy open across exec, where the original is close-on-exec.
    try #require(posix_spawn_file_actions_adddup2(&actions, descriptor, 3) == 0)
    var child: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("sleep"), strdup("60"), nil]
    defer { arguments.forEach { free($0) } }
    let environment: [UnsafeMutablePointer<CChar>?] = [nil]
    // posix_spawn returns once the child has exec'd: it holds the copy alone, as a forked child does until it execs.
    try #require(posix_spawn(&child, "/bin/sleep", &actions, nil, arguments, environment) == 0)
    return child
}
