import Foundation
import ResourceKitCore
internal import ResourceKitSupport

/// The receiver of a download (``Resource/receiver``): each attempt writes an accepted response's body to a file
/// beside the ``LoadContext/destination`` and returns it as the body, which takes the destination's place once the
/// load has succeeded (``Webservice/load(_:)->A``); another status's body stays in memory for the error.
///
/// A `GET` download may leave its partial file for the next attempt, which `Resuming` asks to go on from with `Range`
/// and `If-Range`; a body that resumes it is appended to it. See <doc:TransferringFiles>.
struct Downloading: Middleware {
    func intercept(_ request: Request, context: LoadContext, next: @escaping Next) async throws -> Response {
        guard let destination = context.destination else {
            return try await Collecting().intercept(request, context: context, next: next)
        }
        let resume = try await Self.resume(of: request, to: destination)
        var response = try await next(request, context)
        let ranged = request.value(forHTTPHeaderField: "Range") != nil
        let transfer = Transfer(
            destination: destination, acceptableStatusCodes: context.acceptableStatusCodes, progress: context.progress,
            resume: resume)
        let head = response
        let length = response.announcedLength(to: request)
        do {
            // The file is opened off the cooperative pool: it is in a directory others may write. When it can't be,
            // the body is dropped unread, which stops its transfer.
            var arriving = try await offCooperativePool {
                try ArrivingBody(
                    status: head.statusCode, ranged: ranged, expectedLength: length,
                    maxBodySize: context.maxBodySize, for: transfer, head: head)
            }
            do {
                let reader = response.body.reader()
                while let chunk = try await reader.next() { try arriving.append(chunk)?.report() }
            } catch {
                arriving.breakOff(error)
                throw error
            }
            // A transport may answer after the load was cancelled or timed out: its body must not reach the
            // destination.
            guard !Task.isCancelled else {
                arriving.abandon()
                throw CancellationError()
            }
            let (data, due, file) = try arriving.finish()
            due?.report()
            // The file takes the destination's place once the load has succeeded (`Webservice.load`); a response
            // dropped before, by a middleware that fails the load, removes it.
            response.body = file ?? ResponseBody(data)
        } catch let error as URLError {
            // The file's own failures, and a body that broke off short of its length, as a transport's.
            var failure = WebserviceError(.transport(error))
            failure.attempts = context.attempt
            throw failure
        } catch var error as WebserviceError {
            error.attempts = max(error.attempts, context.attempt)
            throw error
        }
        // A `206` answers a `Range`: to a download that asked for none, it is part of a file, never the file.
        if response.statusCode == 206, !ranged { throw WebserviceError(.unacceptableStatus(response)) }
        return response
    }

    /// What `request`, an attempt of a download to `destination`, resumes: for a `GET` that `Resuming` sent with the
    /// `Range` and `If-Range` of the partial file it found, that file; for another `GET`, nothing yet, with the URL
    /// its partial file will be for; `nil` for a download that doesn't resume.
    private static func resume(of request: Request, to destination: URL) async throws -> Resume? {
        guard request.method == "GET" else { return nil }
        let url = request.url.absoluteString
        guard let range = request.value(forHTTPHeaderField: "Range") else { return Resume(url: url) }
        // Off the cooperative pool: the record and the partial file are in a directory others may write.
        let found = try await offCooperativePool { Resume.found(for: destination, url: url) }
        guard let found, range == "bytes=\(found.offset)-",
            request.value(forHTTPHeaderField: "If-Range") == found.validator
        else { return nil }
        return found
    }
}
