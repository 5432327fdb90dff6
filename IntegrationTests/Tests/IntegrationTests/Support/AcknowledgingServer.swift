import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a server on loopback that answers the `n`th request (from 0) with `answer(n, request)`, runs `body` with its
/// base URL, and stops the server, also when `body` throws; returns the requests' heads, in order.
///
/// It writes each answer with blocking writes and, before it closes the connection, waits until the client's kernel
/// has acknowledged every byte (`SIOCOUTQ` is 0): whatever breaks off after that, the client has received all of it,
/// so a transport must hand all of it over. (A server that closes with bytes still queued, as SwiftNIO discards them,
/// can't tell what arrived.)
@discardableResult
func withAcknowledgingServer(
    answer: @escaping @Sendable (_ n: Int, _ request: String) -> [UInt8],
    _ body: (URL) async throws -> Void
) async throws -> [String] {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(listener, address, length) == 0 && listen(listener, 8) == 0
                && getsockname(listener, address, &length) == 0
        }
    }
    guard bound else {
        close(listener)
        throw POSIXError(.EADDRINUSE)
    }
    let requests = Shared<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        defer { done.signal() }
        var n = 0
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            // A client that neither sends nor reads holds the server 10 s at most, not its shutdown forever.
            var patience = timeval(tv_sec: 10, tv_usec: 0)
            for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
                setsockopt(connection, SOL_SOCKET, option, &patience, socklen_t(MemoryLayout<timeval>.size))
            }
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual("\r\n\r\n".utf8), read(connection, &byte, 1) == 1 { head.append(byte) }
            let request = String(decoding: head, as: UTF8.self)
            requests.update { $0.append(request) }
            let bytes = answer(n, request)
            n += 1
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                written += count
            }
            // Every byte acknowledged, or ten seconds gone.
            var unacknowledged: Int32 = 1
            for _ in 0..<10_000 {
                // SIOCOUTQ (Linux's TIOCOUTQ): the bytes the peer hasn't acknowledged.
                let asked = withUnsafeMutablePointer(to: &unacknowledged) { ioctl(connection, UInt(0x5411), $0) }
                guard asked == 0, unacknowledged > 0 else { break }
                usleep(1_000)
            }
            close(connection)
        }
    }
    thread.start()
    let port = Int(UInt16(bigEndian: address.sin_port))
    try await run({ try await body(URL(string: "http://127.0.0.1:\(port)")!) }) {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
    }
    return requests.value
}

/// `chunk` in HTTP/1.1's chunked transfer coding.
func chunked(_ chunk: String) -> String {
    String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n"
}
