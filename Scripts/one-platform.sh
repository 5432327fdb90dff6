#!/usr/bin/env bash
# Lists the blocks of Swift code that compile on one platform only (CONTRIBUTING.md › "One-platform code").
#
#   Scripts/one-platform.sh [--budget N] [paths...]    (default paths: Sources Tests)
#
# A block is one branch of an `#if`, `#elseif` or `#else` whose condition holds only on Apple platforms (`Darwin`,
# `Security`, `UIKit`, `AppKit`, `!canImport(FoundationNetworking)`, `os(macOS)`…) or only on Linux
# (`FoundationNetworking`, `Glibc`, `Musl`, `os(Linux)`); an `#else` takes the other side. Trait conditions
# (`#if AsyncHTTPClient`) compile on every platform and are not counted. Its lines are those between its directive and
# the next one at its level; a block inside a one-platform block is counted with it. Blocks of imports only are
# summed per platform instead of listed. With `--budget N`, exits 1 when the Apple-only lines besides imports pass N.
set -euo pipefail
cd "$(dirname "$0")/.."

budget=""
if [ "${1:-}" = "--budget" ]; then
    budget=$2
    shift 2
fi
[ $# -gt 0 ] || set -- Sources Tests

find "$@" -name '*.swift' | LC_ALL=C sort | xargs awk -v budget="$budget" '
    # The platform where `condition` holds only: "Apple", "Linux" or "" (both, or a trait).
    function side(condition,    apple, linux, n, terms, i, s, first) {
        gsub(/[ \t]/, "", condition)
        apple = "canImport\\((Darwin|Security|UIKit|AppKit|WatchKit|CoreFoundation)\\)"
        apple = apple "|os\\((macOS|iOS|tvOS|watchOS|visionOS)\\)"
        linux = "canImport\\((FoundationNetworking|Glibc|Musl)\\)|os\\(Linux\\)"
        if (condition ~ ("^!(" linux ")$")) return "Apple"
        if (condition ~ ("^!(" apple ")$")) return "Linux"
        # A conjunction holds on one side if any of its terms does; a disjunction if all of them do.
        if (condition ~ /&&/) {
            n = split(condition, terms, /&&/)
            for (i = 1; i <= n; i++) { s = side(terms[i]); if (s != "") return s }
            return ""
        }
        if (condition ~ /\|\|/) {
            n = split(condition, terms, /\|\|/); first = side(terms[1])
            for (i = 2; i <= n; i++) if (side(terms[i]) != first) return ""
            return first
        }
        if (condition ~ ("^(" apple ")$")) return "Apple"
        if (condition ~ ("^(" linux ")$")) return "Linux"
        return ""
    }
    function other(s) { return s == "Apple" ? "Linux" : (s == "Linux" ? "Apple" : "") }
    # Ends the open branch at `depth` on line `last`, counting it when it is one-platform and not inside another.
    function close_branch(last,    lines) {
        if (branch[depth] == "" || outer[depth]) return
        lines = last - start[depth] + 1
        if (lines <= 0) return
        if (code[depth]) {
            rows[++count] = sprintf("| %s | `%s` | %d–%d | %d |", branch[depth], FILENAME, start[depth], last, lines)
            total[branch[depth]] += lines
        } else {
            imports[branch[depth]] += lines
            files[branch[depth] FS FILENAME] = 1
        }
    }
    FNR == 1 { depth = 0 }
    {
        line = $0; sub(/^[ \t]+/, "", line)
        if (line ~ /^#if[ \t]/) {
            depth++
            taken[depth] = ""
            condition = substr(line, 4); sub(/\/\/.*/, "", condition)
            branch[depth] = side(condition); seen[depth] = branch[depth]
            outer[depth] = 0
            for (d = 1; d < depth; d++) if (branch[d] != "") outer[depth] = 1
            start[depth] = FNR + 1; code[depth] = 0
            next
        }
        if (line ~ /^#elseif[ \t]/ || line ~ /^#else/) {
            close_branch(FNR - 1)
            if (line ~ /^#elseif/) {
                condition = substr(line, 8); sub(/\/\/.*/, "", condition)
                branch[depth] = side(condition)
            } else {
                # The rest: one-platform when every branch before was on the same one side.
                branch[depth] = other(seen[depth])
            }
            if (branch[depth] != seen[depth]) seen[depth] = ""
            start[depth] = FNR + 1; code[depth] = 0
            next
        }
        if (line ~ /^#endif/) {
            close_branch(FNR - 1)
            depth--
            next
        }
        if (depth > 0 && line != "" && line !~ /^(@_exported )?import / && line !~ /^\/\//) code[depth] = 1
    }
    END {
        print "| Platform | File | Lines | Count |"
        print "| --- | --- | --- | --- |"
        for (i = 1; i <= count; i++) print rows[i]
        for (key in files) { split(key, parts, FS); nfiles[parts[1]]++ }
        format = "%s-only: %d lines, and %d lines of imports in %d files.\n"
        printf "\n" format, "Apple", total["Apple"], imports["Apple"], nfiles["Apple"]
        printf format, "Linux", total["Linux"], imports["Linux"], nfiles["Linux"]
        if (budget != "" && total["Apple"] > budget) {
            printf "The Apple-only lines (%d) pass the budget of %d.\n", total["Apple"], budget
            exit 1
        }
    }'
