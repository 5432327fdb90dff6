/// Why a ``RemoteModel`` could not make the resource for an item.
public enum RemoteModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The ID's path segment (from ``RemoteModel/pathComponent(for:)``) is empty, `.` or `..`, so appending it to the
    /// collection URL would name the collection or its parent instead of an item.
    case invalidID(pathComponent: String)

    /// A one-line account of the failure.
    public var description: String {
        switch self {
        case .invalidID(let pathComponent):
            "The ID \"\(pathComponent)\" can't name an item: a URL path segment can't be empty, \".\" or \"..\"."
        }
    }
}
