import Foundation
import ResourceKit

/// The tests' one model, the Swift Talk seed's: resources live on the type they load.
///
/// Decoding it counts the attempt, failed ones included, when the decoder's `userInfo` holds a ``Counter`` under
/// ``Swift/CodingUserInfoKey/modelInits``, as a ``CountingJSONDecoder``'s does.
struct Episode: Codable, Sendable, Equatable {
    var id: String
    var title: String

    private enum CodingKeys: String, CodingKey {
        case id, title
    }
}

extension Episode {
    init(from decoder: any Decoder) throws {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            (decoder.userInfo[.modelInits] as? Counter)?.increment()
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), title: try container.decode(String.self, forKey: .title)
        )
    }
}

struct Media: Codable, Sendable, Equatable {
    var episodeID: String
    var videoURL: URL
}

extension Episode {
    static let all = Resource<[Episode]>(get: baseURL.appendingPathComponent("episodes"))

    var media: Resource<Media> {
        Resource(get: baseURL.appendingPathComponent("episodes/\(id)/media"))
    }

    static func create(_ episode: Episode) throws -> Resource<Episode> {
        try Resource(url: baseURL.appendingPathComponent("episodes"), method: .post(episode))
    }
}
