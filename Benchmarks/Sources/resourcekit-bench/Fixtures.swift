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

    /// Writes `small.json`, `big.json`, `big5.bin`, `big2.bin` and `huge.bin` into `directory`, creating it if needed.
    static func generate(into directory: URL) throws {
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
