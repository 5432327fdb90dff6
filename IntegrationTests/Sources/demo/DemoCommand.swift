import Foundation

/// What the command line asks for.
enum DemoCommand: Equatable {
    /// Print the usage and exit successfully.
    case help
    /// Start the embedded Episodes server and talk to it.
    case embedded
    /// Run the embedded Episodes server on this port (0 for any) until interrupted.
    case serve(port: Int)
    /// Talk to an Episodes server that is already running at this base URL.
    case remote(URL)

    static let usage = """
        Usage: demo [--transport url-session | async-http-client] [BASE-URL | --serve [PORT] | --help]

        Loads the Episodes API with ResourceKit and the SwiftTalk models, and checks every answer.

          demo                          start an embedded Episodes server on 127.0.0.1 and talk to it
          demo http://127.0.0.1:8080    talk to an Episodes server already running there
          demo --serve [PORT]           only run the embedded server, until Ctrl-C (port 0, the default, is any)
          demo --help                   show this help

          --transport async-http-client loads with ResourceKit's AsyncHTTPClientTransport; url-session, the
                                        default, with its URLSession transport

        Exits with 0 when every request behaved as expected, and 1 otherwise.
        """

    /// Reads the arguments that follow the program name.
    ///
    /// - Throws: A ``UsageError`` that explains what is wrong.
    init(arguments: [String]) throws(UsageError) {
        guard let argument = arguments.first else {
            self = .embedded
            return
        }
        if argument == "--serve" {
            guard arguments.count <= 2 else { throw UsageError(message: "--serve takes at most a port") }
            self = .serve(port: try Self.port(arguments.dropFirst().first ?? "0"))
            return
        }
        guard arguments.count == 1 else {
            throw UsageError(message: "expected at most one base URL, got \(arguments.count) arguments")
        }
        if ["--help", "-h", "help"].contains(argument) {
            self = .help
        } else if argument.hasPrefix("-") {
            throw UsageError(message: "unknown option \(argument)")
        } else {
            self = .remote(try Self.baseURL(argument))
        }
    }

    private static func port(_ argument: String) throws(UsageError) -> Int {
        guard let port = Int(argument), (0...65535).contains(port) else {
            throw UsageError(message: "\"\(argument)\" is not a port number from 0 to 65535")
        }
        return port
    }

    private static func baseURL(_ argument: String) throws(UsageError) -> URL {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty
        else {
            throw UsageError(message: "\"\(argument)\" is not an http:// or https:// URL such as http://127.0.0.1:8080")
        }
        return url
    }
}

/// The ResourceKit transport the demo loads with: `--transport url-session` (the default) or
/// `--transport async-http-client`.
enum DemoTransport: String {
    case urlSession = "url-session"
    case asyncHTTPClient = "async-http-client"

    /// Takes `--transport NAME` out of `arguments`: the transport it names, or `URLSession` without one, and the
    /// other arguments.
    ///
    /// - Throws: A ``UsageError`` when the option names no transport.
    static func take(from arguments: [String]) throws(UsageError) -> (DemoTransport, [String]) {
        guard let option = arguments.firstIndex(of: "--transport") else { return (.urlSession, arguments) }
        let names = "url-session or async-http-client"
        guard option + 1 < arguments.count else { throw UsageError(message: "--transport takes \(names)") }
        guard let transport = DemoTransport(rawValue: arguments[option + 1]) else {
            throw UsageError(message: "unknown transport \"\(arguments[option + 1])\": expected \(names)")
        }
        var others = arguments
        others.removeSubrange(option...option + 1)
        return (transport, others)
    }
}

/// A command line the demo can't run.
struct UsageError: Error {
    var message: String
}
