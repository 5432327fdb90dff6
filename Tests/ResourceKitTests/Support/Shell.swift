import Foundation

/// The words a POSIX shell (`/bin/sh`) makes of `command`, a `curl …` command line: the shell reads it with `curl`
/// defined as a function that prints its arguments, so `["curl", "-X", "POST", …]` comes back and nothing runs.
///
/// Whatever the command would run besides `curl` (after a quote that failed to close, say) prints its own output,
/// which then shows up among the words.
func shellWords(of command: String) throws -> [String] {
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", "curl() { printf 'curl\\0'; printf '%s\\0' \"$@\"; }\n" + command]
    let output = Pipe()
    shell.standardOutput = output
    try shell.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    shell.waitUntilExit()
    var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    if words.last == "" { words.removeLast() }
    return words
}
