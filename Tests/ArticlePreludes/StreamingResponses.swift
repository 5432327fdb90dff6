import Foundation

/// A chat API's namespace.
public enum Chat {
    /// Where completions are streamed from.
    public static let completionsURL = baseURL.appendingPathComponent("chat/completions")
}

/// A prompt sent as JSON.
public struct Prompt: Encodable, Sendable {
    /// The prompt's text.
    public var text: String
}

/// A prompt.
public let prompt = Prompt(text: "Hello")
