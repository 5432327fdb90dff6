import Foundation
import ResourceKitCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RetryPolicy {
    /// An attempt that failed, which a ``RetryPolicy``'s rule decides about: whether another attempt follows.
    ///
    /// The rule sees what the policy knows: the request, the load's ``LoadContext`` (with the resource's
    /// ``LoadContext/name`` and the attempt's number, ``LoadContext/attempt``), and the response, whose status the
    /// resource doesn't accept, or the error. ``isTransient`` is the built-in rule, for yours to extend. See
    /// <doc:RetryingRequests#Your-own-rule>.
    ///
    /// ```swift
    /// let policy = RetryPolicy { failed in
    ///     failed.context.name != "checkout" && (failed.isTransient || failed.response?.statusCode == 409)
    /// }
    /// ```
    public struct FailedAttempt: Sendable {
        /// The request the attempt sent.
        public let request: Request
        /// The load's context, as the attempt had it.
        public let context: LoadContext
        /// How the attempt ended: a response whose status the resource doesn't accept, or an error.
        let outcome: Result<Response, WebserviceError>

        init(request: Request, context: LoadContext, outcome: Result<Response, WebserviceError>) {
            self.request = request
            self.context = context
            self.outcome = outcome
        }

        /// The response, whose status the resource doesn't accept; `nil` when the attempt failed without one.
        public var response: Response? { try? outcome.get() }

        /// The error the attempt failed with; `nil` when a response arrived.
        public var error: WebserviceError? {
            if case .failure(let error) = outcome { error } else { nil }
        }

        /// Whether a later attempt may cure the failure, which is the built-in rule: a connection refused or lost, a
        /// host not found or not reachable, a timeout, or the status 408, 429, 500, 502, 503 or 504.
        public var isTransient: Bool {
            switch outcome {
            case .success(let response): RetryPolicy.retryableStatusCodes.contains(response.statusCode)
            case .failure(let error): error.transportErrorCode.map(RetryPolicy.retryableErrorCodes.contains) ?? false
            }
        }
    }
}
