/// The service's in-memory episodes: each running server has its own store.
actor EpisodeStore {
    private var episodes: [String: EpisodeRecord]
    private var nextNumber: Int

    init(seed: [EpisodeRecord] = EpisodeRecord.seed) {
        episodes = Dictionary(uniqueKeysWithValues: seed.map { ($0.id, $0) })
        nextNumber = (seed.map(\.number).max() ?? 0) + 1
    }

    /// Every episode, ordered by number.
    func all() -> [EpisodeRecord] {
        episodes.values.sorted { $0.number < $1.number }
    }

    func episode(id: String) -> EpisodeRecord? {
        episodes[id]
    }

    /// Adds an episode with the next number; numbers and ids are never reused, even after a delete.
    func create(title: String, synopsis: String) -> EpisodeRecord {
        let number = nextNumber
        nextNumber += 1
        let record = EpisodeRecord(
            id: String(number),
            number: number,
            title: title,
            synopsis: synopsis,
            durationSeconds: 0
        )
        episodes[record.id] = record
        return record
    }

    /// Sets the fields that are not `nil`; returns `nil` when there is no such episode.
    func update(id: String, title: String?, synopsis: String?) -> EpisodeRecord? {
        guard var record = episodes[id] else { return nil }
        if let title { record.title = title }
        if let synopsis { record.synopsis = synopsis }
        episodes[id] = record
        return record
    }

    /// Removes an episode; returns whether it existed.
    func delete(id: String) -> Bool {
        episodes.removeValue(forKey: id) != nil
    }
}
