/// An HTTP request method, carrying the request body for the methods that have one.
///
/// The body travels with the method, so a `GET` can never have a body by accident and a `POST` never lacks one.
/// ``Resource`` stores `HTTPMethod<Data>`; the typed initializers encode a model body into bytes with ``map(_:)``.
///
/// ```swift
/// let create: HTTPMethod<Episode> = .post(newEpisode)
/// let bytes: HTTPMethod<Data> = try create.map { try JSONEncoder().encode($0) }
/// ```
public enum HTTPMethod<Body> {
    /// `GET`: reads a resource; no body.
    case get
    /// `POST`: creates a resource or performs an action, with a body.
    case post(Body)
    /// `PUT`: replaces a resource with the body.
    case put(Body)
    /// `PATCH`: updates part of a resource with the body.
    case patch(Body)
    /// `DELETE`: removes a resource; no body.
    case delete

    /// The method's name as it goes on the wire, such as `"GET"` or `"PATCH"`.
    public var name: String {
        switch self {
        case .get: "GET"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        }
    }

    /// The body this method carries, or `nil` for `GET` and `DELETE`.
    public var body: Body? {
        switch self {
        case .get, .delete: nil
        case .post(let body), .put(let body), .patch(let body): body
        }
    }

    /// Returns the same method with its body transformed; methods without a body are unchanged.
    ///
    /// ```swift
    /// let named: HTTPMethod<String> = HTTPMethod<Int>.post(1).map { String($0) }  // .post("1")
    /// ```
    ///
    /// - Parameter transform: A function applied to the body, if there is one.
    /// - Returns: The same method carrying the transformed body.
    /// - Throws: Whatever `transform` throws.
    public func map<NewBody, Failure: Error>(
        _ transform: (Body) throws(Failure) -> NewBody
    ) throws(Failure) -> HTTPMethod<NewBody> {
        switch self {
        case .get: .get
        case .post(let body): .post(try transform(body))
        case .put(let body): .put(try transform(body))
        case .patch(let body): .patch(try transform(body))
        case .delete: .delete
        }
    }
}

extension HTTPMethod: Sendable where Body: Sendable {}
extension HTTPMethod: Equatable where Body: Equatable {}
extension HTTPMethod: Hashable where Body: Hashable {}
