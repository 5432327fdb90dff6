import Foundation
import NIOCore
import NIOPosix

/// Runs stock nginx (Debian's package, which `Scripts/test-all.sh` installs) as a throwaway process on loopback, one
/// HTTPS server for each of `servers`, the directives of a `server` block (certificates, locations) after its
/// `listen`; runs `body` with their base URLs, in order, and stops nginx, also when `body` throws.
///
/// For what another server than the Episodes one does: what a stock server answers is part of what the articles say.
func withNginxOverTLS(_ servers: [String], _ body: ([URL]) async throws -> Void) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("resourcekit-nginx-\(UUID())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A port is free when it is picked, and may be taken before nginx binds it: then nginx exits, and another try picks
    // others.
    for attempt in 1...3 {
        let ports = try await freePorts(servers.count)
        let nginx = try startNginx(in: directory, servers: zip(ports, servers).map { ($0, $1) })
        do {
            try await waitUntil {
                FileManager.default.fileExists(atPath: "\(directory)/nginx.pid") || !nginx.isRunning
            }
        } catch {
            try await stop(nginx)
            throw error
        }
        guard nginx.isRunning else {
            let log = (try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? ""
            if attempt < 3, log.contains(bytesOf: "Address already in use") { continue }
            throw NginxFailed(log: log)
        }
        let urls = ports.map { URL(string: "https://127.0.0.1:\($0)")! }
        try await run({ try await body(urls) }, thenCleanUp: { try await stop(nginx) })
        return
    }
}

/// Stops `nginx` with `SIGKILL`: it runs as one process, which holds nothing to clean up, and inherits the signal mask
/// of the thread that started it, where `SIGTERM` may be blocked.
private func stop(_ nginx: Process) async throws {
    kill(nginx.processIdentifier, SIGKILL)
    try await waitUntil { !nginx.isRunning }
}

/// nginx didn't start; its error log says why.
struct NginxFailed: Error, CustomStringConvertible {
    let log: String
    var description: String { "nginx didn't start (Scripts/test-all.sh installs it): \(log)" }
}

/// Starts nginx in the foreground, one process, with a configuration in `directory` (which also takes its logs, its
/// temporary files and its PID file, the sign that it listens) for `servers`.
private func startNginx(in directory: String, servers: [(port: Int, directives: String)]) throws -> Process {
    let temporaryPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map {
        "\($0)_temp_path \(directory)/\($0);"
    }
    let blocks = servers.map { "server {\nlisten 127.0.0.1:\($0.port) ssl;\n\($0.directives)\n}" }
    let configuration = """
        daemon off;
        master_process off;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log info;
        events { worker_connections 64; }
        http {
        access_log off;
        \(temporaryPaths.joined(separator: "\n"))
        \(blocks.joined(separator: "\n"))
        }
        """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: "\(directory)/nginx.conf"))
    try? FileManager.default.removeItem(atPath: "\(directory)/error.log")  // an earlier try's
    let process = Process()
    // Debian installs it in /usr/sbin, which a user's PATH may lack.
    let installed = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
    guard let installed else { throw NginxFailed(log: "no nginx in /usr/sbin or /usr/bin") }
    process.executableURL = URL(fileURLWithPath: installed)
    process.arguments = ["-p", directory, "-e", "\(directory)/error.log", "-c", "\(directory)/nginx.conf"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}

/// `count` loopback ports that were free a moment ago.
func freePorts(_ count: Int) async throws -> [Int] {
    var channels: [any Channel] = []
    for _ in 0..<count {
        channels.append(
            try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0)
                .get())
    }
    let ports = channels.map { $0.localAddress?.port ?? 0 }
    for channel in channels { try await channel.close() }
    return ports
}
