import Foundation

/// The files nginx serves, generated deterministically so every run measures the same bytes.
enum Fixtures {
    /// The number of objects in `big.json`, about 5 MB.
    static let bigCount = 21_500
    /// The number of objects in `small.json`, about 2 KB.
    static let smallCount = 9
    /// The size of `huge.bin`.
    static let hugeBytes = 50_000_000
    /// The size of `big5.bin`.
    static let big5Bytes = 5_000_000
    /// The size of `big2.bin`.
    static let big2Bytes = 2 << 20
    /// The JSON Lines fixture of `--only streams`: one `Item` a line.
    static let jsonLinesName = "items.jsonl"
    /// Its default size in MiB (`generate --jsonl-mib` sets another): 256, as 1 GiB took rounds of over 10 s here.
    static let jsonLinesMiB = 256
    /// The server-sent events fixture of `--only streams`.
    static let eventsName = "events.sse"
    /// The number of events in it.
    static let eventCount = 200_000
    /// The distinct items the streams' fixtures repeat: 4 096 lines, about 1 MB.
    private static let streamBlockCount = 4_096

    /// Writes `small.json`, `big.json`, `big5.bin`, `big2.bin`, `huge.bin`, `items.jsonl` (`jsonLinesMiB` MiB) and
    /// `events.sse` into `directory`, creating it if needed.
    static func generate(into directory: URL, jsonLinesMiB: Int = jsonLinesMiB) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys  // the same bytes on every run
        var generator = SplitMix64(seed: 0x5EED_2024)
        let files: [(String, Data)] = [
            ("small.json", try encoder.encode(items(count: smallCount, using: &generator))),
            ("big.json", try encoder.encode(items(count: bigCount, using: &generator))),
            ("big5.bin", bytes(count: big5Bytes, using: &generator)),
            ("huge.bin", bytes(count: hugeBytes, using: &generator)),
            ("big2.bin", bytes(count: big2Bytes, using: &generator)),
        ]
        for (name, data) in files {
            try data.write(to: directory.appendingPathComponent(name))
            print("\(name): \(data.count) bytes")
        }
        try streams(into: directory, jsonLinesBytes: jsonLinesMiB << 20, using: &generator, encoder: encoder)
    }

    /// Writes the streams' fixtures: `items.jsonl`, whole lines up to `jsonLinesBytes`, and `events.sse`.
    ///
    /// Both repeat a block of distinct items, which decodes at the same speed as ever new ones and writes a GiB in
    /// seconds; each event's `n` and `id` count up.
    private static func streams(
        into directory: URL,
        jsonLinesBytes: Int,
        using generator: inout SplitMix64,
        encoder: JSONEncoder
    ) throws {
        let block = try items(count: streamBlockCount, using: &generator).map { try encoder.encode($0) }
        var lines = Data()
        for item in block {
            lines.append(item)
            lines.append(0x0A)
        }
        var written = 0
        var count = 0
        try write(directory.appendingPathComponent(jsonLinesName)) { file in
            while written + lines.count <= jsonLinesBytes {
                try file.write(contentsOf: lines)
                written += lines.count
                count += block.count
            }
            for item in block where written + item.count + 1 <= jsonLinesBytes {
                try file.write(contentsOf: item + [0x0A])
                written += item.count + 1
                count += 1
            }
        }
        print("\(jsonLinesName): \(written) bytes, \(count) lines")

        written = 0
        try write(directory.appendingPathComponent(eventsName)) { file in
            var chunk = Data()
            for index in 0..<eventCount {
                let number = index + 1
                // `{"n":N,` and the rest of an item's JSON: 200 to 300 bytes of data.
                chunk.append(contentsOf: "id: \(number)\nevent: tick\ndata: {\"n\":\(number),".utf8)
                chunk.append(block[index % block.count].dropFirst())
                chunk.append(contentsOf: "\n\n".utf8)
                if chunk.count >= 1 << 20 || number == eventCount {
                    try file.write(contentsOf: chunk)
                    written += chunk.count
                    chunk.removeAll(keepingCapacity: true)
                }
            }
        }
        print("\(eventsName): \(written) bytes, \(eventCount) events")
    }

    /// Creates the file at `url` and gives `body` its handle.
    private static func write(_ url: URL, _ body: (FileHandle) throws -> Void) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchError("can't create \(url.path)")
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try body(file)
    }

    private static let words = [
        "async", "await", "resource", "parsing", "network", "layer", "codable", "swift", "session", "value",
        "testing", "fixtures", "server", "client", "types", "generic", "protocol", "closure", "actor", "task",
        "cancel", "timeout", "cache", "header", "status", "request", "response", "decoder", "encoder", "model",
        "refactoring", "composition", "view", "controller", "state", "binding", "layout", "image", "stream", "buffer",
    ]

    private static let collections = [
        "Swift Talk", "Server-Side Swift", "Concurrency Deep Dive", "Networking Essentials", "SwiftUI Layout",
        "Testing", "Building a Parser", "App Architecture",
    ]

    private static func items(count: Int, using generator: inout SplitMix64) -> [Item] {
        let start = Date(timeIntervalSince1970: 1_401_580_800)  // 2014-06-01T00:00:00Z
        return (0..<count).map { index in
            let number = index + 1
            return Item(
                id: 100_000 + number,
                number: number,
                title: "Episode \(number): " + sentence(minimumLength: 18, using: &generator),
                synopsis: sentence(minimumLength: 57, using: &generator).capitalizedFirst + ".",
                released: start.addingTimeInterval(Double(index * 86_400 + Int(generator.next() % 86_400))),
                duration: 600 + Int(generator.next() % 3_000),
                collection: collections[Int(generator.next() % UInt64(collections.count))]
            )
        }
    }

    private static func sentence(minimumLength: Int, using generator: inout SplitMix64) -> String {
        var text = ""
        while text.utf8.count < minimumLength {
            if !text.isEmpty { text += " " }
            text += words[Int(generator.next() % UInt64(words.count))]
        }
        return text
    }

    private static func bytes(count: Int, using generator: inout SplitMix64) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            let remaining = count - bytes.count
            withUnsafeBytes(of: generator.next()) { word in bytes.append(contentsOf: word.prefix(remaining)) }
        }
        return Data(bytes)
    }
}

/// A small, fast, deterministic random number generator (Vigna's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension String {
    fileprivate var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
