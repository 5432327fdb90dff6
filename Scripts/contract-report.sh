#!/usr/bin/env bash
# The numbers the "contract is a module" refactor reports before and after, for the current tree:
#
#   1. lines per target under Sources/, and of the "core" (CORE_FILES below);
#   2. public and open symbols per module, from the compiler's symbol graphs, default build and all traits;
#   3. LoadContext's stored fields, public and not;
#   4. under callgrind, the functions of the library's modules that every load of a small GET calls, and their files,
#      and those of a download of it to a file over URLSessionTransport;
#   5. (with --instructions) instructions per load against the raw clients: Benchmarks/run.sh's own section.
#
#   Scripts/contract-report.sh                       # everything: about 17 minutes the first time (two debug
#                                                    # builds of SwiftNIO and AsyncHTTPClient), 2 to 3 after
#   Scripts/contract-report.sh --skip-traits         # no all-traits build: no all-traits symbols, no AHC shape
#   Scripts/contract-report.sh --skip-callgrind      # sections 1 to 3 only
#   Scripts/contract-report.sh --loads 50            # loads per callgrind run (default 50)
#   Scripts/contract-report.sh --instructions        # also runs Benchmarks/run.sh --only instructions --instructions
#
# The measured code is built by a small probe package that the script writes to .build/contract-report/ (a debug
# build, DWARF 4 so that valgrind 3.19 reads its file and line information): without traits, with all of them (for
# the symbols only) and with the AsyncHTTPClient trait alone. Its executable does one warm-up load and then --loads
# loads of a 1.5 KB JSON array of 9 objects through a Webservice: with an in-memory transport and URLSessionTransport
# (the build without traits), and AsyncHTTPClientTransport; the last two against nginx on loopback. Set CORE_FILES
# and MODULES in the environment to change what is counted.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

# The "core": the ResourceKitCore target (before the split, a set of files in the ResourceKit target: set CORE_FILES to
# measure an older tree). Globs and directories are expanded; a directory counts all its .swift files.
CORE_FILES=${CORE_FILES:-"Sources/ResourceKitCore"}
# The library's modules, whose symbols and functions are counted: every directory under Sources/ unless set.
MODULES=${MODULES:-$(find Sources -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')}
read -ra modules <<< "$MODULES"
ALL_TRAITS=AsyncHTTPClient,HTTPTypes,OpenAPI,Logging,Metrics,Tracing

skip_callgrind=false
skip_traits=false
instructions=false
loads=50
while [ $# -gt 0 ]; do
    case $1 in
        --skip-callgrind) skip_callgrind=true ;;
        --skip-traits) skip_traits=true ;;
        --instructions) instructions=true ;;
        --loads)
            [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "contract-report.sh: --loads needs a positive number" >&2; exit 2; }
            loads=$2
            shift
            ;;
        -h | --help)
            sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "contract-report.sh: unknown argument $1 (see --help)" >&2
            exit 2
            ;;
    esac
    shift
done

work=$repo/.build/contract-report
mkdir -p "$work"
export PATH="$PATH:/usr/sbin:/sbin"

# ---------------------------------------------------------------------------------------------------------------------
echo "== 1. Lines (all lines of the .swift files, doc comments and blank lines included)"
lines_of() { # files or directories → total lines of their .swift files
    local files=()
    local item
    for item in "$@"; do
        if [ -d "$item" ]; then
            while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$item" -name '*.swift' -print0)
        elif [ -f "$item" ]; then
            files+=("$item")
        fi
    done
    if [ ${#files[@]} -eq 0 ]; then
        echo "0 0"
    else
        echo "${#files[@]} $(cat "${files[@]}" | wc -l)"
    fi
}
printf '   %-44s %6s %8s\n' "target" "files" "lines"
total_files=0
total_lines=0
for target in "${modules[@]}"; do
    read -r files count < <(lines_of "Sources/$target")
    printf '   %-44s %6d %8d\n' "Sources/$target" "$files" "$count"
    total_files=$((total_files + files))
    total_lines=$((total_lines + count))
done
printf '   %-44s %6d %8d\n' "all targets" "$total_files" "$total_lines"
# shellcheck disable=SC2086 # CORE_FILES is a list of globs, to be split and expanded here
read -r files count < <(lines_of $CORE_FILES)
printf '   %-44s %6d %8d\n' "core (CORE_FILES)" "$files" "$count"

# ---------------------------------------------------------------------------------------------------------------------
# The probe package: depends on the library by path, builds every library product, and is the executable that
# callgrind runs. One per trait set, each with a build directory of its own.
replace_if_changed() { # file: FILE.new replaces it only when it differs, so that an unchanged probe isn't rebuilt
    if cmp -s "$1.new" "$1"; then
        rm "$1.new"
    else
        mv "$1.new" "$1"
    fi
}
write_probe() { # directory, traits ("" or a comma-separated list)
    local directory=$1 traits=$2 traits_argument="" defines=""
    mkdir -p "$directory/Sources/contract-probe"
    if [ -n "$traits" ]; then
        traits_argument=", traits: [\"${traits//,/\", \"}\"]"
        [[ ,$traits, == *,AsyncHTTPClient,* ]] && defines='swiftSettings: [.define("PROBE_AHC")]'
    fi
    local products=""
    for module in "${modules[@]}"; do
        if grep -qE "\.library\(name: \"$module\"" Package.swift; then
            products+=".product(name: \"$module\", package: \"ResourceKit\"), "
        fi
    done
    cat > "$directory/Package.swift.new" << SWIFT
// swift-tools-version: 6.2
// Written by Scripts/contract-report.sh: the library's products, built as one executable's dependencies.
import PackageDescription

let package = Package(
    name: "contract-probe",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "ResourceKit", path: "$repo"$traits_argument)],
    targets: [
        .executableTarget(name: "contract-probe", dependencies: [$products] $( [ -n "$defines" ] && echo ", $defines"))
    ]
)
SWIFT
    replace_if_changed "$directory/Package.swift"
    cat > "$directory/Sources/contract-probe/main.swift.new" << 'SWIFT'
// contract-probe SHAPE LOADS BASE_URL BODY_FILE: one warm-up load of BASE_URL/small.json, then LOADS more.
import Foundation
import ResourceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct Item: Codable, Sendable {
    var id: Int
    var name: String
    var tags: [String]
    var score: Double
}

/// Answers every request with the same body, as a test's stub does: no network, no copies.
struct InMemoryTransport: Transport {
    var body: Data
    var response: HTTPURLResponse

    func send(_ request: Request, context: LoadContext) async throws -> (Response, ResponseBody) {
        (try Response(response), ResponseBody(body))
    }
}

/// The loads, in a detached task that a synchronous main waits for: valgrind 3.19 crashes in an `async` main, whose
/// main thread `dispatch_main` ends (as Benchmarks/Sources/resourcekit-bench/Main.swift notes).
func run(_ arguments: [String]) async throws {
    guard arguments.count == 5, let loads = Int(arguments[2]), let base = URL(string: arguments[3]) else {
        fatalError("usage: contract-probe in-memory|urlsession|ahc|download LOADS BASE_URL BODY_FILE")
    }
    let url = base.appendingPathComponent("small.json")
    let body = try Data(contentsOf: URL(fileURLWithPath: arguments[4]))
    let webservice: Webservice
    switch arguments[1] {
    case "in-memory":
        let headers = ["Content-Type": "application/json", "Content-Length": "\(body.count)"]
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers)!
        webservice = Webservice(transport: InMemoryTransport(body: body, response: response))
    case "urlsession", "download":
        webservice = Webservice()
    #if PROBE_AHC
        case "ahc":
            webservice = Webservice(transport: AsyncHTTPClientTransport())
    #endif
    default:
        fatalError("unknown shape \(arguments[1])")
    }
    if arguments[1] == "download" {
        // The same file, downloaded to a file of its own each load, over URLSessionTransport.
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("contract-probe.json")
        let download = Resource<URL>(url: url, downloadingTo: destination)
        for _ in 0...loads {
            let downloaded = try Data(contentsOf: try await webservice.load(download))
            precondition(downloaded == body, "the downloaded file differs from the body")
        }
        return
    }
    let resource = Resource<[Item]>(get: url)
    let expected = try JSONDecoder().decode([Item].self, from: body).count
    for _ in 0...loads {  // one warm-up load, then `loads`
        let items = try await webservice.load(resource)
        precondition(items.count == expected, "expected \(expected) items, got \(items.count)")
    }
}

let arguments = CommandLine.arguments
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do { try await run(arguments) } catch { fatalError("\(error)") }
    finished.signal()
}
finished.wait()
exit(0)
SWIFT
    replace_if_changed "$directory/Sources/contract-probe/main.swift"
}

# Symbol graphs: the compiler's own (-emit-symbol-graph), written while it builds each module, then copied to
# symbols-NAME; valgrind 3.19 can't read the DWARF 5 that Swift writes by default, hence DWARF 4. Each probe has a
# build directory of its own: SwiftPM doesn't rebuild a dependency whose traits changed under the same one.
build_probe() { # name, traits → prints the path of a copy of the probe's executable
    local name=$1 traits=$2 scratch=$1
    local directory=$work/probe-$name emitted=$work/symbols-$scratch-build
    write_probe "$directory" "$traits"
    echo "   building the probe ($name: ${traits:-no traits}, debug) in $directory…" >&2
    local flags=(
        --package-path "$directory" --scratch-path "$work/build-$scratch"
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$emitted"
        -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
        -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4
    )
    # The compiler writes a module's symbol graph when it emits the module: without the library's modules, the
    # build emits them again (and only them, when nothing else changed).
    mkdir -p "$emitted"
    for module in "${modules[@]}"; do
        rm -rf "$work/build-$scratch/debug/Modules/$module.swiftmodule" "$emitted/$module.symbols.json" \
            "$emitted/$module@"*.symbols.json
    done
    if ! nice -n 10 swift build "${flags[@]}" > "$work/build-$name.log" 2>&1; then
        tail -n 40 "$work/build-$name.log" >&2
        echo "contract-report.sh: the $name probe didn't build (log: $work/build-$name.log)" >&2
        exit 1
    fi
    rm -rf "$work/symbols-$name"
    mkdir -p "$work/symbols-$name"
    for module in "${modules[@]}"; do
        # A module without symbols of its own (ResourceKit only re-exports, a trait's target is empty without its
        # trait) gets no graph.
        [ -f "$emitted/$module.symbols.json" ] || continue
        cp "$emitted/$module.symbols.json" "$emitted/$module@"*.symbols.json "$work/symbols-$name/" 2> /dev/null \
            || cp "$emitted/$module.symbols.json" "$work/symbols-$name/"
    done
    cp "$(swift build "${flags[@]}" --show-bin-path)/contract-probe" "$work/contract-probe-$name"
    echo "$work/contract-probe-$name"
}

count_symbols() { # name, title
    python3 - "$work/symbols-$1" "$2" "${modules[@]}" << 'PY'
import glob, json, os, sys

directory, title, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
print(f"   {title}")
print(f"   {'module':<24} {'public+open':>11} {'not synthesized':>16} {'in extensions of other modules':>31}")
totals = [0, 0, 0]
for module in modules:
    counts = [0, 0, 0]
    files = glob.glob(os.path.join(directory, f"{module}.symbols.json")) + glob.glob(
        os.path.join(directory, f"{module}@*.symbols.json"))
    for path in files:
        for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
                counts[0] += 1
                continue
            counts[0] += 1
            counts[1] += 1
            if "@" in os.path.basename(path):
                counts[2] += 1
    totals = [a + b for a, b in zip(totals, counts)]
    print(f"   {module:<24} {counts[0]:>11} {counts[1]:>16} {counts[2]:>31}")
print(f"   {'total':<24} {totals[0]:>11} {totals[1]:>16} {totals[2]:>31}")
PY
}

echo
echo "== 2. Public symbols per module (the compiler's symbol graphs, accessLevel public or open, SPI left out)"
echo "   'not synthesized' leaves out the members a type gets from protocol extensions and superclasses (the"
echo "   symbol graph marks them ::SYNTHESIZED::); 'in extensions of other modules' is part of it: extensions of"
echo "   Foundation's or the standard library's types (the ResourceKit@Foundation.symbols.json files)."
default_probe=$(build_probe default "")
count_symbols default "default build (no traits)"
ahc_probe=""
if [ "$skip_traits" = false ]; then
    echo
    build_probe all-traits "$ALL_TRAITS" > /dev/null
    count_symbols all-traits "all traits ($ALL_TRAITS)"
    # The AsyncHTTPClientTransport shape with that trait alone: the Tracing trait adds a layer to every load.
    [ "$skip_callgrind" = true ] || ahc_probe=$(build_probe ahc AsyncHTTPClient)
else
    echo "   (all traits: skipped, --skip-traits)"
fi

# ---------------------------------------------------------------------------------------------------------------------
echo
echo "== 3. LoadContext's stored fields (stored var/let of the struct, #if branches included; static and computed not)"
context_file=$(grep -rlE '^\s*public struct LoadContext\b' Sources | head -n 1 || true)
[ -n "$context_file" ] || { echo "contract-report.sh: no 'public struct LoadContext' under Sources/" >&2; exit 1; }
python3 - "$context_file" << 'PY'
import re, sys

path = sys.argv[1]
text = open(path, encoding="utf-8").read()
# Blank out comments and string literals, keeping the lines, so braces and keywords in them don't count.
text = re.sub(r'"""[\s\S]*?"""', lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
text = re.sub(r"/\*[\s\S]*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
text = re.sub(r"//[^\n]*", "", text)

start = re.search(r"\bstruct\s+LoadContext\b[^{]*\{", text)
depth, i, body_start = 1, start.end(), start.end()
while depth:
    depth += {"{": 1, "}": -1}.get(text[i], 0)
    i += 1
body = text[body_start : i - 1]

# The declarations at the struct's own level: depth 0 inside the body (#if lines don't change the depth).
fields = []
depth = 0
declaration = re.compile(
    r"^\s*((?:@\w+(?:\([^)]*\))?\s+)*)((?:(?:public|open|package|internal|fileprivate|private)(?:\((?:set)\))?\s+"
    r"|nonisolated(?:\(unsafe\))?\s+|lazy\s+|weak\s+|unowned\s+|final\s+|static\s+|class\s+)*)(var|let)\s+(\w+)(.*)$"
)
lines = body.split("\n")
for index, line in enumerate(lines):
    if depth == 0:
        match = declaration.match(line)
        if match:
            modifiers, keyword, name, rest = match.group(2), match.group(3), match.group(4), match.group(5)
            if not re.search(r"\b(static|class)\b", modifiers):
                computed = False
                if keyword == "var" and "{" in rest and "=" not in rest.split("{")[0]:
                    # A block after the type: computed, unless its accessors are observers of a stored property.
                    block, level = [], 0
                    for following in lines[index:]:
                        block.append(following)
                        level += following.count("{") - following.count("}")
                        if level <= 0 and len(block) > 0 and "{" in "".join(block):
                            break
                    computed = not re.search(r"\b(willSet|didSet)\b", "\n".join(block))
                if not computed:
                    access = re.search(r"\b(public|open|package|internal|fileprivate|private)\b", modifiers)
                    level_name = access.group(1) if access else "internal"
                    setter = re.search(r"\b(\w+)\(set\)", modifiers)
                    fields.append((name, keyword, level_name + (f", {setter.group(1)}(set)" if setter else "")))
    depth += line.count("{") - line.count("}")

public = [f for f in fields if f[2].startswith(("public", "open"))]
other = [f for f in fields if not f[2].startswith(("public", "open"))]
print(f"   {path}: {len(fields)} stored fields, {len(public)} public, {len(other)} not public")
for title, group in (("public", public), ("not public", other)):
    print(f"   {title + ':':<12}" + ", ".join(f"{n} ({k} {a})" for n, k, a in group))
PY

# ---------------------------------------------------------------------------------------------------------------------
if [ "$skip_callgrind" = false ]; then
    echo
    echo "== 4. Calls and files for a small GET (callgrind; debug build of the probe; $loads loads after 1 warm-up)"
    command -v valgrind > /dev/null || { apt-get update -qq && apt-get install -y -qq valgrind > /dev/null; }
    command -v nginx > /dev/null || { apt-get update -qq && apt-get install -y -qq nginx-light > /dev/null; }

    www=$work/www
    mkdir -p "$www"
    # small.json: 9 objects, about 1.5 KB, like the benchmarks' fixture.
    python3 - "$www/small.json" << 'PY'
import json, sys
items = [{"id": i, "name": f"item {i}", "tags": ["alpha", "beta", "gamma"][: i % 3 + 1], "score": i * 1.25 + 0.5}
         for i in range(9)]
items = [dict(item, description="x" * 96) for item in items]
json.dump(items, open(sys.argv[1], "w"), separators=(",", ":"))
PY

    nginx_pid=""
    cleanup() {
        if [ -n "$nginx_pid" ]; then
            kill "$nginx_pid" 2> /dev/null || true
            wait "$nginx_pid" 2> /dev/null || true
        fi
    }
    trap cleanup EXIT
    port_is_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
    port=""
    for candidate in $(seq 18180 18220); do
        if port_is_free "$candidate"; then
            port=$candidate
            break
        fi
    done
    [ -n "$port" ] || { echo "contract-report.sh: no free port in 18180-18220" >&2; exit 1; }
    mkdir -p "$work/nginx"
    user_line=""
    [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
    cat > "$work/nginx/nginx.conf" << CONF
$user_line
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $work/nginx/client_body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types { application/json json; }
    server {
        listen 127.0.0.1:$port;
        root $www;
    }
}
CONF
    nginx -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" &
    nginx_pid=$!
    for _ in $(seq 1 100); do
        port_is_free "$port" || break
        sleep 0.1
    done
    port_is_free "$port" && { echo "contract-report.sh: nginx didn't start" >&2; exit 1; }

    shapes=("in-memory:$default_probe" "urlsession:$default_probe" "download:$default_probe")
    if [ -n "$ahc_probe" ]; then
        shapes+=("ahc:$ahc_probe")
    else
        echo "   (AsyncHTTPClientTransport: skipped, --skip-traits)"
    fi
    # A fixed hash seed, so that the same work calls the same functions in every run.
    export SWIFT_DETERMINISTIC_HASHING=1
    # The core's files, one a line, for the column of the files a load touches that are in the core.
    # shellcheck disable=SC2086 # CORE_FILES is a list of globs, to be split and expanded here
    CORE_LIST=$(for item in $CORE_FILES; do if [ -d "$item" ]; then find "$item" -name '*.swift'; else echo "$item"; fi; done)
    export CORE_LIST
    printf '   %-12s %10s %9s %7s %8s   %s\n' "shape" "functions" "symbols" "files" "in core" "by module (functions/files)"
    for entry in "${shapes[@]}"; do
        shape=${entry%%:*}
        probe=${entry#*:}
        out=$work/callgrind-$shape.out
        valgrind --tool=callgrind -q --callgrind-out-file="$out" "$probe" "$shape" "$loads" \
            "http://127.0.0.1:$port" "$www/small.json" > "$work/callgrind-$shape.log" 2>&1 || {
            cat "$work/callgrind-$shape.log" >&2
            echo "contract-report.sh: the $shape probe failed under callgrind" >&2
            exit 1
        }
        python3 - "$out" "$loads" "$repo" "$shape" "$work/callgrind-$shape" "${modules[@]}" << 'PY'
import collections, os, re, subprocess, sys

path, loads, repo, shape, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
modules = sys.argv[6:]
manglings = {f"$s{len(m)}{m}": m for m in modules}
tables = {"file": {}, "function": {}}
def name(kind, value):  # callgrind's name compression: "(id) name" the first time, "(id)" after
    table = tables["file" if kind in ("fl", "fi", "fe", "cfl", "cfi") else "function"]
    match = re.match(r"\((\d+)\)(?: (.*))?$", value)
    if not match:
        return value
    if match.group(2) is not None:
        table[match.group(1)] = match.group(2)
    return table[match.group(1)]
def function_name(value):  # callgrind marks a function's recursion levels with 'N: one function
    return re.sub(r"'\d+$", "", name("fn", value))

calls = collections.Counter()
files = {}
file = callee_file = callee = None
for line in open(path, encoding="utf-8", errors="replace"):
    key, _, value = line.rstrip("\n").partition("=")
    if key == "fl":
        file = callee_file = name(key, value)
    elif key in ("fi", "fe"):
        name(key, value)
    elif key == "fn":
        files[function_name(value)] = file
    elif key in ("cfl", "cfi"):
        callee_file = name(key, value)
    elif key == "cfn":
        callee = function_name(value)
        files.setdefault(callee, callee_file)
    elif key == "calls":
        calls[callee] += int(value.split()[0])
        callee_file = file

symbols = sorted(s for s, count in calls.items() if count >= loads and s.startswith(tuple(manglings)))
demangled = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(symbols), capture_output=True,
                           text=True, check=True).stdout.splitlines() if symbols else []
# An async function is split into partial functions (one per suspension point), and a closure or method may be
# reached through a forwarding thunk: both count as the function. The compiler's own helpers (value witnesses,
# "outlined copy of", metadata accessors, protocol witness thunks, derived conformances) count as symbols only.
thunk = re.compile(r"^(?:\(\d+\) (?:suspend |await )?resume partial function for |partial apply forwarder for )+")
helper = re.compile(r"^(?:outlined |type metadata |lazy protocol witness|protocol witness for |merged |reabstraction "
                    r"thunk|value witness|associated type|.*__derived_)")
def relative(file):
    return (file or "???").replace(repo + "/", "")
functions = collections.defaultdict(set)  # module → functions
source_files = collections.defaultdict(set)
listing = []
for symbol, text in zip(symbols, demangled):
    module = next(m for mangling, m in manglings.items() if symbol.startswith(mangling))
    where = relative(files.get(symbol))
    function = thunk.sub("", text)
    generated = bool(helper.match(function)) or "<compiler-generated>" in where
    listing.append(f"{calls[symbol]:>8}  {'helper  ' if generated else 'function'}  {text}  [{where}]")
    if not generated:
        functions[module].add(function)
        if where.startswith("Sources/"):
            source_files[module].add(where)
with open(prefix + "-functions.txt", "w") as out:
    out.write("calls     kind      symbol (demangled)  [file]\n" + "\n".join(listing) + "\n")
with open(prefix + "-files.txt", "w") as out:
    out.write("\n".join(sorted(set().union(*source_files.values()))) + "\n")
total_functions = len(set().union(*functions.values())) if functions else 0
total_files = len(set().union(*source_files.values())) if source_files else 0
core = set(os.environ.get("CORE_LIST", "").split("\n")) - {""}
in_core = len(set().union(*source_files.values()) & core) if source_files else 0
by_module = ", ".join(f"{m} {len(functions[m])}/{len(source_files[m])}" for m in modules if functions[m])
print(f"   {shape:<12} {total_functions:>10} {len(symbols):>9} {total_files:>7} {in_core:>8}   {by_module}")
PY
    done
    echo "   functions: the distinct functions of ${modules[*]} called at least $loads times (on every load),"
    echo "   an async function's partial functions and a forwarding thunk counted as their function; symbols: every"
    echo "   symbol of those modules called that often, the compiler's helpers (outlined copies, metadata accessors,"
    echo "   protocol witness thunks) included; files: the distinct files under Sources/ the functions are in, and"
    echo "   how many of those are core files (CORE_FILES). The lists: $work/callgrind-<shape>-functions.txt"
    echo "   and -files.txt."
fi

# ---------------------------------------------------------------------------------------------------------------------
echo
echo "== 5. Instructions per load against the raw clients"
if [ "$instructions" = true ]; then
    Benchmarks/run.sh --only instructions --instructions
else
    echo "   Benchmarks/run.sh --only instructions --instructions   (release build; or pass --instructions here)"
fi
