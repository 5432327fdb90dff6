import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The benchmark executable: the comparison run, and the subcommands it re-invokes itself with.
///
/// `main` is synchronous and waits for a task: valgrind 3.19 crashes in an `async` main, whose main thread
/// `dispatch_main` ends, and the `instructions` children run under valgrind.
@main
struct ResourceKitBench {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("-h") || arguments.contains("--help") {
            print(Options.usage)
            return
        }
        if arguments.first == "model-size" {
            // On the main thread, whose heap `malloc_trim` and the resident-memory figures describe as before.
            do { try MemoryChild.modelSize(arguments: Array(arguments.dropFirst())) } catch { fail(error) }
            return
        }
        let finished = DispatchSemaphore(value: 0)
        // Detached: `main` runs on the main actor, whose thread waits here.
        Task.detached {
            await run(arguments)
            finished.signal()
        }
        finished.wait()
        exit(0)
    }

    private static func fail(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("resourcekit-bench: \(error)\n".utf8))
        exit(1)
    }

    private static func run(_ arguments: [String]) async {
        do {
            switch arguments.first {
            case "generate":
                var megabytes = Fixtures.jsonLinesMiB
                if arguments.count == 4, arguments[2] == "--jsonl-mib", let value = Int(arguments[3]), value > 0 {
                    megabytes = value
                } else if arguments.count != 2 {
                    throw BenchError(Options.usage)
                }
                try Fixtures.generate(
                    into: URL(fileURLWithPath: arguments[1], isDirectory: true), jsonLinesMiB: megabytes)
            case "stream-memory":
                guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
                    throw BenchError("ResourceKit's streams need macOS 15")
                }
                try await StreamShapes.memoryChild(arguments: Array(arguments.dropFirst()))
            case "memory":
                try await MemoryChild.run(arguments: Array(arguments.dropFirst()))
            case "instructions":
                try await Instructions.child(arguments: Array(arguments.dropFirst()))
            default:
                try await Runner(options: Options(arguments: arguments)).run()
            }
        } catch {
            fail(error)
        }
    }
}
