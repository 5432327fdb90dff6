import Foundation
import ResourceKit

extension Episode {
    /// All episodes, ordered by number: `GET /episodes`.
    ///
    /// - Parameter baseURL: The API's base URL, such as `http://127.0.0.1:8080`.
    /// - Returns: The resource.
    public static func all(at baseURL: URL) -> Resource<[Episode]> {
        Resource(get: baseURL.appendingPathComponent("episodes")).decodingAPIErrors(as: APIErrorBody.self)
    }

    /// One episode: `GET /episodes/:id`.
    ///
    /// - Parameters:
    ///   - id: The episode's identifier.
    ///   - baseURL: The API's base URL.
    /// - Returns: The resource.
    public static func one(id: String, at baseURL: URL) -> Resource<Episode> {
        Resource(get: baseURL.appendingPathComponent("episodes").appendingPathComponent(id))
            .decodingAPIErrors(as: APIErrorBody.self)
    }

    /// Creates an episode: `POST /episodes`, answered with the new episode.
    ///
    /// - Parameters:
    ///   - draft: The new episode's title and synopsis.
    ///   - baseURL: The API's base URL.
    /// - Returns: The resource.
    /// - Throws: `WebserviceError.encoding` when the draft can't be encoded.
    public static func create(_ draft: EpisodeDraft, at baseURL: URL) throws(WebserviceError) -> Resource<Episode> {
        try Resource(url: baseURL.appendingPathComponent("episodes"), method: .post(draft))
            .decodingAPIErrors(as: APIErrorBody.self)
    }

    /// The episode's video: `GET` its ``mediaURL``.
    public var media: Resource<Media> {
        Resource(get: mediaURL).decodingAPIErrors(as: APIErrorBody.self)
    }

    /// Replaces the episode's title and synopsis: `PUT` to its ``url``, answered with the replaced episode.
    ///
    /// - Parameter draft: The new title and synopsis.
    /// - Returns: The resource.
    /// - Throws: `WebserviceError.encoding` when the draft can't be encoded.
    public func replace(with draft: EpisodeDraft) throws(WebserviceError) -> Resource<Episode> {
        try Resource(url: url, method: .put(draft)).decodingAPIErrors(as: APIErrorBody.self)
    }

    /// Changes some of the episode's fields: `PATCH` to its ``url``, answered with the updated episode.
    ///
    /// - Parameter patch: The fields to change; `nil` fields are left as they are.
    /// - Returns: The resource.
    /// - Throws: `WebserviceError.encoding` when the patch can't be encoded.
    public func update(_ patch: EpisodePatch) throws(WebserviceError) -> Resource<Episode> {
        try Resource(url: url, method: .patch(patch)).decodingAPIErrors(as: APIErrorBody.self)
    }

    /// Deletes the episode: `DELETE` its ``url``, answered with `204 No Content`.
    public var delete: Resource<Void> {
        Resource<Void>(url: url, method: .delete, parse: { _ in }).decodingAPIErrors(as: APIErrorBody.self)
    }
}
