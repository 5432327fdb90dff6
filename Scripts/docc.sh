#!/usr/bin/env bash
# Builds one library's documentation with DocC and fails on any warning: broken symbol links in the catalog or in
# `///` comments, invalid parameter documentation, unresolved topics, and public symbols without documentation.
#
# Run from the repository root:  Scripts/docc.sh [module]     (ResourceKit by default, or ResourceKitTesting)
#
# Environment:
#   SCRATCH      build directory (default .build-docc, so it doesn't contend with .build)
#   DOCC         docc executable (default: docc on PATH, then `xcrun docc`)
#   DOCC_OUTPUT  keep the .doccarchive here (default: a temporary directory, removed on exit)
set -euo pipefail

module="${1:-ResourceKit}"
catalog="Sources/$module/$module.docc"
scratch="${SCRATCH:-.build-docc}"
start=$SECONDS

if [[ ! -d "$catalog" ]]; then
    echo "error: $catalog not found; run this script from the repository root." >&2
    exit 1
fi

if [[ -n "${DOCC:-}" ]]; then
    docc=("$DOCC")
elif command -v docc >/dev/null 2>&1; then
    docc=(docc)
elif command -v xcrun >/dev/null 2>&1 && xcrun --find docc >/dev/null 2>&1; then
    docc=(xcrun docc)
else
    echo "error: docc not found; put it on PATH or set DOCC." >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
graphs="$work/symbol-graphs"
output="${DOCC_OUTPUT:-$work/$module.doccarchive}"
mkdir -p "$graphs" "$work/all-graphs"

# 1. Symbol graphs. Build only the library target, then extract its public API with the extensions of other modules'
#    types as extension blocks (as the swift-docc-plugin does), so that URLRequest.init(resource:) gets a page.
#    `import ResourceKit` re-exports ResourceKitCore and ResourceKitBuiltIns: their symbols are ResourceKit's, in one
#    graph (the extractor's `-experimental-allowed-reexported-modules`; the compiler's `-emit-symbol-graph` leaves
#    re-exported modules out). The output directory is new on every run, so no stale graph can survive.
case "$module" in
ResourceKit) reexported=ResourceKitCore,ResourceKitBuiltIns ;;
*) reexported="" ;;
esac
if ! swift build --scratch-path "$scratch" --target "$module" >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    echo "error: building $module failed." >&2
    exit 1
fi
modules_dir="$(swift build --scratch-path "$scratch" --show-bin-path)/Modules"
extract=(
    swift-symbolgraph-extract -module-name "$module" -I "$modules_dir" -minimum-access-level public
    -output-dir "$work/all-graphs" -emit-extension-block-symbols
    -target "$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -n 1)"
)
[[ -n "$reexported" ]] && extract+=("-experimental-allowed-reexported-modules=$reexported")
if ! "${extract[@]}" >"$work/extract.log" 2>&1; then
    cat "$work/extract.log" >&2
    echo "error: extracting the symbol graph of $module failed." >&2
    exit 1
fi
if [[ ! -f "$work/all-graphs/$module.symbols.json" ]]; then
    cat "$work/build.log" "$work/extract.log" >&2
    echo "error: no symbol graph for $module." >&2
    exit 1
fi
# Keep only the module's own graphs ($module.symbols.json and $module@<ExtendedModule>.symbols.json).
cp "$work/all-graphs/$module.symbols.json" "$graphs/"
for graph in "$work/all-graphs/$module"@*.symbols.json; do
    [[ -f "$graph" ]] && cp "$graph" "$graphs/"
done
# On Linux, URLRequest and URLSession live in FoundationNetworking, which Foundation re-exports; on Apple platforms
# they are Foundation's. Present them as Foundation's everywhere, so the pages and the catalog's links
# (``Foundation/URLRequest``) are the same on every platform.
networking="$graphs/$module@FoundationNetworking.symbols.json"
if [[ -f "$networking" ]]; then
    if [[ -f "$graphs/$module@Foundation.symbols.json" ]]; then
        echo "error: $module extends types of both Foundation and FoundationNetworking; teach $0 to merge them." >&2
        exit 1
    fi
    sed 's/"extendedModule":"FoundationNetworking"/"extendedModule":"Foundation"/g' "$networking" \
        >"$graphs/$module@Foundation.symbols.json"
    rm "$networking"
fi

# 2. Every public symbol declared in the sources needs a `///` comment of its own; docc doesn't warn about
#    undocumented symbols. Symbols without a source location (protocol default implementations such as
#    `LocalizedError.failureReason`) or declared in another module's sources are inherited and skipped.
cat >"$work/CheckDocs.swift" <<'SWIFT'
import Foundation

struct Graph: Decodable {
    struct Symbol: Decodable {
        struct Kind: Decodable { var identifier: String }
        struct Location: Decodable {
            struct Position: Decodable { var line: Int; var character: Int }
            var uri: String
            var position: Position
        }
        struct DocComment: Decodable {
            struct Line: Decodable { var text: String }
            var module: String?
            var lines: [Line]
        }
        var kind: Kind
        var pathComponents: [String]
        var location: Location?
        var docComment: DocComment?
    }
    var symbols: [Symbol]
}

let module = CommandLine.arguments[1]
// The module's own sources and those of the modules it re-exports, in ResourceKit's layout.
let sourceDirectories = module == "ResourceKit" ? [module, "ResourceKitCore", "ResourceKitBuiltIns"] : [module]
let root = FileManager.default.currentDirectoryPath + "/"
var declared = 0
var undocumented: [String] = []
for path in CommandLine.arguments.dropFirst(2) {
    let graph = try JSONDecoder().decode(Graph.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    for symbol in graph.symbols where symbol.kind.identifier != "swift.extension" {
        guard let location = symbol.location else { continue }
        var file = URL(string: location.uri)?.path ?? location.uri
        if file.hasPrefix(root) { file.removeFirst(root.count) }
        // Declared in another module than the module's own and those it re-exports: inherited.
        guard sourceDirectories.contains(where: { file.hasPrefix("Sources/\($0)/") }) else { continue }
        declared += 1
        let hasOwnComment = symbol.docComment.map { comment in
            sourceDirectories.contains(comment.module ?? module)
                && comment.lines.contains { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        } ?? false
        if !hasOwnComment {
            let name = symbol.pathComponents.joined(separator: ".")
            undocumented.append(
                "\(file):\(location.position.line + 1):\(location.position.character + 1): "
                    + "warning: public symbol '\(name)' has no documentation comment"
            )
        }
    }
}
for line in undocumented.sorted() { print(line) }
print("declared=\(declared) undocumented=\(undocumented.count)")
SWIFT
if ! swiftc -o "$work/check-docs" "$work/CheckDocs.swift" >"$work/check-build.log" 2>&1; then
    cat "$work/check-build.log" >&2
    echo "error: compiling the documentation-comment check failed." >&2
    exit 1
fi
"$work/check-docs" "$module" "$graphs"/*.symbols.json >"$work/check.log"
grep -v '^declared=' "$work/check.log" || true
declared="$(sed -n 's/^declared=\([0-9]*\) .*/\1/p' "$work/check.log")"
undocumented="$(sed -n 's/.* undocumented=\([0-9]*\)$/\1/p' "$work/check.log")"

# 3. Convert. --analyze also reports notes (such as a missing summary), which are printed but don't fail the check;
#    --warnings-as-errors makes docc fail on warnings, and the log is checked for any warning or error line too,
#    so nothing docc reports can slip through.
status=0
"${docc[@]}" convert "$catalog" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.resourcekit.$module" \
    --output-path "$output" \
    --analyze \
    --warnings-as-errors \
    >"$work/docc.log" 2>&1 || status=$?
# docc prints blank lines even when it has nothing to report.
if grep -q '[^[:space:]]' "$work/docc.log"; then cat "$work/docc.log"; fi
warnings="$(grep -cE '^(warning|error):' "$work/docc.log" || true)"

if ((status != 0 || warnings > 0 || undocumented > 0)); then
    echo "error: DocC check failed: $warnings docc warning(s)/error(s), $undocumented undocumented public symbol(s)," \
        "docc exit status $status." >&2
    exit 1
fi
pages="$(find "$output/data/documentation" -name '*.json' | wc -l | tr -d ' ')"
echo "DocC: $module documentation OK, 0 warnings, $declared public symbols documented, $pages pages" \
    "($((SECONDS - start))s)."
