import Foundation
import Hummingbird

extension Router {
    /// Adds the streaming routes: server-sent events and JSON Lines, written as the client reads them.
    ///
    /// - `GET /streams/events?count=N&ms=M&hold=1`: N events `id: i`, `event: tick`, `data: {"n":i}`, M ms apart
    ///   (default 0); with `hold=1` the connection then stays open until the client goes. A `Last-Event-ID` request
    ///   field resumes after that event; `retry=R` sends `retry: R` first; `drop=K` breaks the connection after K events and half of the next.
    /// - `GET /streams/unauthorized?kib=K`: 401 with `WWW-Authenticate: Bearer` and K KiB of body (default 2048) in
    ///   chunks of 4 KiB.
    /// - `GET /streams/lines?count=N&ms=M&pad=P&cut=K`: N lines `{"n":i,"pad":"xx…"}` (P bytes of padding), M ms apart;
    ///   with `cut=K` the connection breaks after K lines, without the body's end.
    public func addStreamRoutes() {
        get("/streams/unauthorized") { request, _ in
            // A 401 with a challenge, whose body arrives in many small chunks.
            let kilobytes = request.integer("kib") ?? 2048
            return Response(
                status: .unauthorized,
                headers: [.wwwAuthenticate: "Bearer", .contentType: "text/plain"],
                body: ResponseBody { writer in
                    for _ in 0..<(kilobytes / 4) {
                        try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: 4096))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        get("/streams/events") { request, _ in
            let count = request.integer("count") ?? 3
            let pause = request.integer("ms") ?? 0
            let first = (request.headers[HTTPFields.Element.Name("Last-Event-ID")!].flatMap { Int($0) } ?? 0) + 1
            let drop = request.integer("drop")
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    if let retry = request.integer("retry") {
                        try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n"))
                    }
                    var sent = 0
                    for n in stride(from: first, through: count, by: 1) {
                        if let drop, sent == drop {
                            // Half of the next event, its blank line missing, then the connection breaks.
                            try await writer.write(ByteBuffer(string: "id: \(n)\nevent: tick\ndata: {\"n\":\(n)}\n"))
                            try await FaultError.breakConnection()
                        }
                        try await writer.write(ByteBuffer(string: "id: \(n)\nevent: tick\ndata: {\"n\":\(n)}\n\n"))
                        sent += 1
                        if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                    }
                    if request.integer("hold") == 1 {
                        try await writer.write(ByteBuffer(string: ": holding\n\n"))
                        try await Task.sleep(for: .seconds(600))
                    }
                    try await writer.finish(nil)
                }
            )
        }
        get("/streams/lines") { request, _ in
            let count = request.integer("count") ?? 3
            let pause = request.integer("ms") ?? 0
            let padding = String(repeating: "x", count: max(request.integer("pad") ?? 0, 0))
            let cut = request.integer("cut")
            return Response(
                status: .ok,
                headers: [.contentType: "application/jsonl"],
                body: ResponseBody { writer in
                    var batch = ByteBuffer()
                    for n in 1...max(count, 1) {
                        if let cut, n > cut {
                            try await writer.write(batch)
                            try await FaultError.breakConnection()
                        }
                        batch.writeString("{\"n\":\(n),\"pad\":\"\(padding)\"}\n")
                        if pause > 0 || batch.readableBytes >= 65_536 {
                            try await writer.write(batch)
                            batch.clear()
                        }
                        if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                    }
                    try await writer.write(batch)
                    try await writer.finish(nil)
                }
            )
        }
    }
}
