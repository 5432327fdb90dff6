/// The body of `POST /episodes` and `PUT /episodes/:id`: both fields are required.
struct DraftBody: Decodable {
    var title: String
    var synopsis: String
}

/// The body of `PATCH /episodes/:id`: each field is optional, but must be a string when present.
struct PatchBody: Decodable {
    var title: String?
    var synopsis: String?
}
