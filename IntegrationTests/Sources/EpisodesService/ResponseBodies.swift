/// The JSON an episode is sent as.
///
/// Its URLs are absolute, built from the request's host.
struct EpisodeBody: Encodable {
    var id: String
    var number: Int
    var title: String
    var synopsis: String
    var url: String
    var mediaURL: String

    init(_ record: EpisodeRecord, baseURL: String) {
        id = record.id
        number = record.number
        title = record.title
        synopsis = record.synopsis
        url = "\(baseURL)/episodes/\(record.id)"
        mediaURL = "\(baseURL)/episodes/\(record.id)/media"
    }
}

/// The JSON of an episode's video.
struct MediaBody: Encodable {
    var episodeID: String
    var videoURL: String
    var durationSeconds: Int

    init(_ record: EpisodeRecord) {
        episodeID = record.id
        videoURL = "https://videos.example.com/\(record.id).mp4"
        durationSeconds = record.durationSeconds
    }
}

/// The JSON of the signed-in account.
struct AccountBody: Encodable {
    var name: String
    var subscriber: Bool
}

/// The JSON of `GET /echo`.
struct EchoBody: Encodable {
    var id: String
}

/// The JSON body of every 4xx and 5xx response, such as `{"error":"not_found","reason":"No episode with id 99"}`.
struct ErrorBody: Encodable {
    var error: String
    var reason: String
}
