import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Transport {
    /// Sends `request` alone, as a test calls a transport, and collects its whole body.
    func data(for request: Request) async throws -> (Data, Response) {
        let (head, body) = try await send(request, context: LoadContext())
        return (try await body.collect(upTo: .max), head)
    }
}
