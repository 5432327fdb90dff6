import Foundation

/// A running `openssl s_server` (see ``withOpenSSLServer(certificate:key:options:_:)``).
struct OpenSSLServer: Sendable {
    /// Its base URL, `https://127.0.0.1:<port>`.
    let base: URL
    /// The file its standard output goes to: `-msg`'s trace of every TLS record.
    let log: String

    /// The application-data records the server received so far: each request a client wrote, and nothing else as
    /// long as the server speaks TLS 1.2 or older (TLS 1.3 sends its handshake in such records too).
    var applicationRecordsReceived: Int {
        let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
        return zip(lines, lines.dropFirst()).filter { header, bytes in
            header.hasPrefix("<<< ") && header.contains("RecordHeader") && bytes.hasPrefix("    17 ")
        }.count
    }
}

/// Runs `openssl s_server` as a child process on a free loopback port, presenting `certificate` (a chain, PEM) with
/// `key`, with `options` (such as `-tls1_2`), answering every `GET` with `200` and a status page (`-www`); runs `body`
/// with it, and kills it, also when `body` throws.
///
/// For what another TLS stack than the Episodes server's and nginx's does: OpenSSL's own options limit versions and
/// ciphers precisely.
func withOpenSSLServer(
    certificate: String, key: String, options: [String] = [], _ body: (OpenSSLServer) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-s-server-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let (log, errors) = ("\(directory)/out.log", "\(directory)/err.log")
    // A port is free when it is picked, and may be taken before openssl binds it: then openssl exits, and another try
    // picks another.
    for attempt in 1...3 {
        let port = try await freePorts(1)[0]
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["openssl", "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-msg"]
            + options
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: log)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        let stop = {
            kill(process.processIdentifier, SIGKILL)
            try await waitUntil { !process.isRunning }
        }
        // It prints `ACCEPT` once it listens.
        let printed = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        do {
            try await waitUntil { printed().contains("ACCEPT") || !process.isRunning }
        } catch {
            try await stop()
            throw error
        }
        guard process.isRunning else {
            let output = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            if attempt < 3, output.contains("in use") { continue }
            throw OpenSSLServerFailed(output: output)
        }
        let server = OpenSSLServer(base: URL(string: "https://127.0.0.1:\(port)")!, log: log)
        try await run({ try await body(server) }, thenCleanUp: stop)
        return
    }
}

/// `openssl s_server` didn't start; its standard error says why.
struct OpenSSLServerFailed: Error, CustomStringConvertible {
    let output: String
    var description: String { "openssl s_server didn't start: \(output)" }
}
