#!/usr/bin/env bash
# Fuzzes every synchronous function that reads server bytes, with libFuzzer, for a bounded time.
#
#   Scripts/fuzz.sh [seconds-per-target] [target ...]     (default: 60 seconds, every target)
#
# Targets (drivers in Fuzz/, one file each; Fuzz/FuzzInput.swift carves structured input from the bytes):
#   charset            Content-Type charset parsing and text decoding (Charset, Resource<String>)
#   cache-control      Cache-Control parsing (CacheControl)
#   coding-path        coding-path walks (CodingPath, JSONDecoder+CodingPath, Resource(get:at:))
#   payload            Payload
#   lenient-array      LenientArray
#   redirect           the redirect and credential rules (isSafeHeader, URLRequest.redirected(from:))
#   error-description  WebserviceError's description, dump and mirror with any body and header fields
#   property-list      Resource(url:propertyListDecoder:)
#   link-header        RFC 8288 Link parsing for pagination (LinkHeader)
#   multipart          multipart/form-data encoding (RequestBody.multipart), read back by a form parser
#   curl-command       URLRequest.cURLDescription, read back by a POSIX shell-word parser
#   content-range      Content-Range parsing for resumed downloads (ContentRange)
#   cache-file         a persistent cache's entry file read back (CacheFile.read), its metadata behind a valid head
#   certificate        a server certificate's public key for pinning, a trust policy's roots, pins and PEM identity, and
#                      a transport's host keys and their match (TrustPolicy, TrustHosts)
#   stream-framing     a streamed body's framing (Framer: events, JSON Lines, JSON text sequences) in arbitrary chunks,
#                      against the whole body framed at once
#   set-cookie         a Set-Cookie value URLSession joined, split into its cookies again (HTTPSyntax.cookies)
#   cookie-jar         Set-Cookie fields a cookie jar keeps (RFC 6265 parsing, dates, limits) and the Cookie it sends
#
# How: the library's sources (its targets without dependencies, their imports of each other left out) and all drivers
# are compiled once, as one module (so internal symbols are visible), with
# `swiftc -sanitize=fuzzer,address -Onone`, into .build/fuzz/fuzz-targets; each target is a hard link to it named
# after the target, and the name picks the driver (FUZZ_TARGET=<target> does too). -Onone rather than -O: it builds
# 3 times faster (45 s against 120 s on a loaded 2-core machine) and keeps assertions, and executions per second are
# about the same (most time goes to Foundation's parsers, compiled already), half at worst (charset). Nothing is
# installed: the script stops when `swiftc -sanitize=fuzzer` doesn't work. It rebuilds only when a source is newer.
#
# Each target runs with -max_len=65536 (64 KB, large enough for quadratic behaviour to show) and -timeout=2 (an
# input that takes over 2 seconds is a hang), and starts from a 40-60 KB seed written at each run, so large inputs
# come at once; property-list's inputs stay under 4 KB: nesting deep enough to overflow Foundation's parser is a
# known crash (issue 10, item 10); curl-command's under 8 KB: it checks quoting, and redacts each body twice, whose
# linear but sanitizer-slowed passes took over 2 s for 60 KB on a loaded machine (the redaction target covers 64 KB). Committed seeds are in Fuzz/Corpus/<target>/ (hand-written ones, and inputs that
# found a bug, in the library or in a driver's invariant); new inputs go to .build/fuzz/corpus/<target>/, crashes,
# hangs and leaks to .build/fuzz/artifacts/, logs to .build/fuzz/logs/. Reproduce one with
#   .build/fuzz/<target> <file>
# It prints each target's executions and exits non-zero if a target found a crash or a hang. CI runs
# `Scripts/fuzz.sh 20`: about 3 minutes with the build.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
all_targets=(charset cache-control coding-path payload lenient-array redirect error-description redaction property-list
    link-header multipart curl-command content-range cache-file certificate stream-framing set-cookie cookie-jar)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
    if [[ " ${all_targets[*]} " != *" $target "* ]]; then
        echo "error: no fuzz target $target; the targets are ${all_targets[*]}" >&2
        exit 1
    fi
done

out=.build/fuzz
binary=$out/fuzz-targets
mkdir -p "$out/corpus" "$out/artifacts" "$out/logs"

# libFuzzer must be available: it ships with the Swift toolchain on Linux, not with every toolchain (Xcode's has none).
probe=$out/probe
printf '@_cdecl("LLVMFuzzerTestOneInput") public func fuzz(_ p: UnsafeRawPointer, _ n: Int) -> CInt { 0 }\n' \
    >"$probe.swift"
if ! swiftc -sanitize=fuzzer -parse-as-library "$probe.swift" -o "$probe" >"$probe.log" 2>&1; then
    cat "$probe.log"
    echo "error: \`swiftc -sanitize=fuzzer\` is unavailable with this toolchain; use the Linux Swift toolchain." >&2
    exit 1
fi

# The library's targets without a dependency: the support target, the core and the built-ins.
library_dirs=(Sources/ResourceKitSupport Sources/ResourceKitCore Sources/ResourceKitBuiltIns)
if [ ! -x "$binary" ] || [ -n "$(find "${library_dirs[@]}" Fuzz -name '*.swift' -newer "$binary")" ]; then
    echo "== Building the fuzz targets (the whole library, once)"
    # Compiled as one module, a copy of each source without its imports of the library's own modules.
    rm -rf "$out/sources"
    library_sources=()
    while IFS= read -r source; do
        copy="$out/sources/${source#Sources/}"
        mkdir -p "$(dirname "$copy")"
        grep -vE '^(internal |@_exported )?import ResourceKit(Support|Core|BuiltIns)$' "$source" >"$copy"
        library_sources+=("$copy")
    done < <(find "${library_dirs[@]}" -name '*.swift' | sort)
    swiftc -swift-version 6 -warnings-as-errors -sanitize=fuzzer,address -Onone -use-ld=lld -package-name resourcekit \
        -parse-as-library -module-name ResourceKit "${library_sources[@]}" Fuzz/*.swift -o "$binary"
fi

# libFuzzer and the address sanitizer report crashes; Swift's own backtracer would get in their way.
export SWIFT_BACKTRACE=enable=no
# Large seeds, written at each run rather than committed: libFuzzer grows inputs slowly, and these put 40-60 KB
# inputs with many fields, parameters, elements or directives in front of it at once, so quadratic work times out.
repeat() { local i; for ((i = 0; i < $2; i++)); do printf '%b' "$1"; done; }
large_seed() {
    case $1 in
    charset) printf 'text/plain'; repeat '; a="b;c\\"' 2000; printf '; charset=latin1\n'; repeat 'Grüße ' 4000 ;;
    cache-control) repeat 'max-age=1, no-cache="a,b", ' 2000 ;;
    coding-path) repeat 'a/' 3000; printf '9999\n'; repeat '{"a": [0, ' 200; repeat '1, ' 10000; printf '2]}' ;;
    payload) printf '\3['; repeat '{"x": 1, "y": 2}, ' 3000; printf '{}]' ;;
    lenient-array) printf '\0['; repeat '1, "a", null, ' 4000; printf '1]' ;;
    redirect) printf 'https://a.example/\nhttps://b.example/\n'; repeat 'X-Api-Token: secret\nAccept: */*\n' 1500 ;;
    error-description) printf '\0\1\364'; repeat 'X-Session: s\n' 1000; printf '\n'; repeat 'é\n€ ' 6000 ;;
    redaction) printf 'secret-value\n'; repeat 'http://u:p@h/?token=t&a=b Bearer x "password": "y" ://@ ' 700 ;;
    property-list) printf '\2<plist><array>'; repeat '<integer>1</integer>' 190; printf '</array></plist>' ;;
    content-range) printf 'bytes '; repeat '9' 30000; printf -- '-'; repeat '0' 30000; printf '/*' ;;
    stream-framing) printf '\2\377\377\3\1\7\200'; repeat "id: 1\r\n:\r\ndata: $(repeat x 2000)\r\n\r\n" 30 ;;
    set-cookie) printf '\0'; repeat 'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b, ,=, ' 1200 ;;
    cookie-jar) printf 'https://a.b.example/p/q\n'; repeat 'c=1; Path=/p; Domain=b.example; Max-Age=9; Expires=1 Jan 99 1:2:3\n' 700 ;;
    curl-command) printf '\1POST\np\nX-Note\nv\ntext/plain\nUA\n'; repeat "{\"note\": \"it'\\\\ \\\"x\\\" \$(id)\"}, " 250 ;;
    esac
}

failed=()
summary=()
for target in "${targets[@]}"; do
    ln -f "$binary" "$out/$target"
    max_len=65536
    [ "$target" = property-list ] && max_len=4096
    [ "$target" = curl-command ] && max_len=8192
    mkdir -p "$out/corpus/$target" "Fuzz/Corpus/$target"
    large_seed "$target" >"$out/corpus/$target/large"
    log=$out/logs/$target.log
    echo "== Fuzzing $target for $seconds s (-max_len=$max_len -timeout=2)"
    status=0
    "$out/$target" "$out/corpus/$target" "Fuzz/Corpus/$target" -max_total_time="$seconds" -max_len="$max_len" \
        -timeout=2 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/$target-" \
        >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    if [ "$status" -ne 0 ]; then
        tail -n 40 "$log"
        failed+=("$target")
        summary+=("$target: FAILED (exit $status) after ${executions:-?} executions; see $log")
    else
        summary+=("$target: ${executions:-?} executions in $seconds s, no crash or hang")
    fi
    echo "${summary[-1]}"
done

echo "== Fuzzing summary"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz targets that failed: ${failed[*]} (inputs in $out/artifacts/)"
    exit 1
fi
