import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A hostile HTTP/1.1 server on loopback for one connection: it writes a head, then streams body bytes until the
/// client closes the connection or `cap` bytes went out, and records which happened.
///
/// It runs on a thread of its own with blocking sockets, so it needs nothing from the library under test.
final class HostileServer: Sendable {
    /// How one connection went.
    struct Report: Sendable {
        /// The request's head as it arrived.
        var request: String
        /// The body bytes the server wrote.
        var sent: Int
        /// Whether a write failed because the client closed the connection.
        var clientClosed: Bool
    }

    let port: UInt16
    private let listener: Int32
    private let outcome = Box()

    private final class Box: Sendable {
        let value = Mutex<Report?>(nil)
    }

    /// Listens on loopback; `head` is written as it is, then `chunk` repeatedly (forever, or up to `cap` bytes),
    /// each write after `pause` microseconds.
    init(head: String, chunk: Data = Data(repeating: 0x61, count: 65_536), cap: Int, pause: UInt32 = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let listener = listener
        let outcome = outcome
        let thread = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.ends(with: Array("\r\n\r\n".utf8)) {
                let count = recv(connection, &buffer, buffer.count, 0)
                if count <= 0 { break }
                request += buffer[..<count]
            }
            func write(_ data: Data) -> Bool {
                data.withUnsafeBytes { bytes in
                    var written = 0
                    while written < bytes.count {
                        let result = send(
                            connection, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
                        if result <= 0 { return false }
                        written += result
                    }
                    return true
                }
            }
            var report = Report(request: String(decoding: request, as: UTF8.self), sent: 0, clientClosed: false)
            if write(Data(head.utf8)) {
                while report.sent < cap {
                    if pause > 0 { usleep(pause) }
                    guard write(chunk) else {
                        report.clientClosed = true
                        break
                    }
                    report.sent += chunk.count
                }
            } else {
                report.clientClosed = true
            }
            close(connection)
            outcome.value.withLock { $0 = report }
        }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/hostile")! }

    /// How the connection went, once it has ended; waits up to `seconds`.
    func report(within seconds: Double = 60) async -> Report? {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let report = outcome.value.withLock({ $0 }) { return report }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    deinit {
        close(listener)
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
