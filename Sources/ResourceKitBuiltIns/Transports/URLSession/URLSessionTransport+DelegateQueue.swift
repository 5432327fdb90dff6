import Foundation
import ResourceKitCore
internal import ResourceKitSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking

    /// The delegate queue of ``URLSessionTransport``'s own session on Linux: it runs each delegate call at once, on the
    /// thread that adds it, which is curl's as FoundationNetworking delivers a response, a chunk of body or a task's end.
    ///
    /// A chunk is in its buffer or its file before curl reads the next one from the socket, as FoundationNetworking
    /// gathers a body for a completion handler itself: no chunks pile up in memory, a disk slower than the network slows
    /// the server down through TCP, and no chunk crosses to another thread. No thread waits for another either: the
    /// delegate's calls are short and never call into FoundationNetworking, whose `dataTask`, `resume` and `cancel` wait
    /// for the work queue that curl's thread holds here. ``SessionDelegate`` does those on a queue of its own.
    ///
    /// Apple platforms need none of this: there the delegate's calls come on the serial queue `URLSession` makes.
    ///
    /// Stateless; `@unchecked` as Swift 6 requires a subclass to restate `OperationQueue`'s own (see CONTRIBUTING.md).
    final class InlineQueue: OperationQueue, @unchecked Sendable {
        override func addOperation(_ block: @escaping @Sendable () -> Void) {
            block()
        }
    }
#endif
