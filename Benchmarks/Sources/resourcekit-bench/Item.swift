import Foundation

/// One element of the fixtures: an Episode-like record with strings of realistic lengths and an ISO 8601 date.
struct Item: Codable, Sendable, Equatable {
    var id, number: Int
    var title, synopsis: String
    var released: Date
    var duration: Int
    var collection: String
}

extension JSONDecoder {
    /// The decoder every variant uses: default settings but `.iso8601` dates.
    static func items() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
