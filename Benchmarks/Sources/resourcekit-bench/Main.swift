import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The benchmark executable: the comparison run, and the subcommands it re-invokes itself with.
@main
struct ResourceKitBench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("-h") || arguments.contains("--help") {
            print(Options.usage)
            return
        }
        do {
            switch arguments.first {
            case "generate":
                guard arguments.count == 2 else { throw BenchError(Options.usage) }
                try Fixtures.generate(into: URL(fileURLWithPath: arguments[1], isDirectory: true))
            case "memory":
                try await MemoryChild.run(arguments: Array(arguments.dropFirst()))
            case "model-size":
                try MemoryChild.modelSize(arguments: Array(arguments.dropFirst()))
            default:
                try await Runner(options: Options(arguments: arguments)).run()
            }
        } catch {
            FileHandle.standardError.write(Data("resourcekit-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}
