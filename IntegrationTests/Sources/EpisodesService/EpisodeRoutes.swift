import Hummingbird

extension Router {
    /// Adds `/episodes`: list, read, create, replace, update and delete episodes, and read an episode's media.
    func addEpisodeRoutes(store: EpisodeStore) {
        get("/episodes") { request, _ in
            let episodes = await store.all().map { EpisodeBody($0, baseURL: request.baseURL) }
            return try Response.json(episodes)
        }
        get("/episodes/:id") { request, context in
            let id = try context.parameters.require("id")
            guard let record = await store.episode(id: id) else { throw APIError.episodeNotFound(id) }
            return try Response.json(EpisodeBody(record, baseURL: request.baseURL))
        }
        get("/episodes/:id/media") { _, context in
            let id = try context.parameters.require("id")
            guard let record = await store.episode(id: id) else { throw APIError.episodeNotFound(id) }
            return try Response.json(MediaBody(record))
        }
        post("/episodes") { request, context in
            let draft = try await request.decodeJSON(DraftBody.self, context: context)
            let record = await store.create(title: try validTitle(draft.title), synopsis: draft.synopsis)
            let episode = EpisodeBody(record, baseURL: request.baseURL)
            return try Response.json(episode, status: .created, headers: [.location: episode.url])
        }
        put("/episodes/:id") { request, context in
            let id = try context.parameters.require("id")
            let draft = try await request.decodeJSON(DraftBody.self, context: context)
            let title = try validTitle(draft.title)
            guard let record = await store.update(id: id, title: title, synopsis: draft.synopsis) else {
                throw APIError.episodeNotFound(id)
            }
            return try Response.json(EpisodeBody(record, baseURL: request.baseURL))
        }
        patch("/episodes/:id") { request, context in
            let id = try context.parameters.require("id")
            let patch = try await request.decodeJSON(PatchBody.self, context: context)
            let title = try patch.title.map(validTitle)
            guard let record = await store.update(id: id, title: title, synopsis: patch.synopsis) else {
                throw APIError.episodeNotFound(id)
            }
            return try Response.json(EpisodeBody(record, baseURL: request.baseURL))
        }
        delete("/episodes/:id") { _, context in
            let id = try context.parameters.require("id")
            guard await store.delete(id: id) else { throw APIError.episodeNotFound(id) }
            return Response(status: .noContent)
        }
    }
}

/// A title must have something besides whitespace.
private func validTitle(_ title: String) throws -> String {
    guard title.contains(where: { !$0.isWhitespace }) else {
        throw APIError.invalidBody("Field \"title\" must not be empty")
    }
    return title
}
