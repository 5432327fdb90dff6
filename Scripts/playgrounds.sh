#!/usr/bin/env bash
# Compiles and runs every page of Playgrounds/ResourceKit.playground, in the order contents.xcplayground lists them.
#
# It is the Linux check for the playground (a page that doesn't compile, or whose `check` fails, fails the script)
# and the project's offline demo: the pages are a tutorial and print what they show.
#
#   Scripts/playgrounds.sh                                  # reuses .build
#   SCRATCH=.build-playgrounds Scripts/playgrounds.sh       # builds in a scratch path of its own
#
# It mirrors what Xcode does with a playground: the playground's Sources/ folder is compiled once as a module of its
# own, which every page imports implicitly (so what the pages use from it must be `public`), and each page is
# compiled as the top-level code of an executable (so top-level `await` works) against the ResourceKit module.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

SCRATCH="${SCRATCH:-.build}"
PLAYGROUND="Playgrounds/ResourceKit.playground"
SOURCES_MODULE="ResourceKit_Sources"
SWIFTC_FLAGS=(-swift-version 6 -warnings-as-errors -Onone -g)

bold() { if [[ -t 1 ]]; then printf '\033[1m%s\033[0m\n' "$*"; else printf '%s\n' "$*"; fi; }
die() {
    printf 'playgrounds: %s\n' "$*" >&2
    exit 1
}
# Wall-clock time, with microseconds where bash provides them (bash 5's EPOCHREALTIME).
now() { if [[ -n "${EPOCHREALTIME:-}" ]]; then printf '%s\n' "${EPOCHREALTIME/,/.}"; else date +%s; fi; }
seconds_since() { awk -v start="$1" -v now="$(now)" 'BEGIN { printf "%.1fs", now - start }'; }

# --- The pages, in the order the playground lists them -------------------------------------------------------------
manifest="$PLAYGROUND/contents.xcplayground"
[[ -f "$manifest" ]] || die "no $manifest"
pages=()
while IFS= read -r name; do
    name="${name//&apos;/\'}"
    name="${name//&quot;/\"}"
    name="${name//&lt;/<}"
    name="${name//&gt;/>}"
    name="${name//&amp;/&}"
    pages+=("$name")
done < <(sed -n "s/.*<page name=[\"']\([^\"']*\)[\"'].*/\1/p" "$manifest")
((${#pages[@]} > 0)) || die "$manifest lists no pages"

for name in "${pages[@]}"; do
    [[ -f "$PLAYGROUND/Pages/$name.xcplaygroundpage/Contents.swift" ]] ||
        die "$manifest lists page '$name', but $PLAYGROUND/Pages/$name.xcplaygroundpage/Contents.swift is missing"
done
for dir in "$PLAYGROUND"/Pages/*.xcplaygroundpage; do
    name="$(basename "$dir" .xcplaygroundpage)"
    listed=false
    for page in "${pages[@]}"; do [[ "$page" == "$name" ]] && listed=true; done
    $listed || die "$dir is not listed in $manifest, so Xcode wouldn't show it; add it or delete it"
done

# --- The library ---------------------------------------------------------------------------------------------------
start="$(now)"
bold "Building ResourceKit (scratch path $SCRATCH)"
swift build --scratch-path "$SCRATCH" --target ResourceKit
bin="$(swift build --scratch-path "$SCRATCH" --show-bin-path)"

# SwiftPM puts the .swiftmodule in <bin>/Modules (older toolchains: <bin> itself) and an object per source file,
# <name>.swift.o, in <bin>/<target>.build. Its `sources` file lists the target's current sources, so an object
# left behind by a deleted source file isn't linked.
modules=""
for dir in "$bin/Modules" "$bin"; do
    if [[ -e "$dir/ResourceKit.swiftmodule" ]]; then
        modules="$dir"
        break
    fi
done
[[ -n "$modules" ]] || die "ResourceKit.swiftmodule is in neither $bin/Modules nor $bin"
objects=()
# ResourceKit and the modules it is made of, each in its own <bin>/<target>.build.
for target in ResourceKit ResourceKitCore ResourceKitBuiltIns ResourceKitSupport; do
    objects_dir="$bin/$target.build"
    if [[ -f "$objects_dir/sources" ]]; then
        while IFS= read -r source; do
            [[ "$source" == *.swift ]] || continue
            object="$objects_dir/$(basename "$source").o"
            [[ -f "$object" ]] || die "no object file $object for $source"
            objects+=("$object")
        done <"$objects_dir/sources"
    else
        shopt -s nullglob
        objects+=("$objects_dir"/*.o)
        shopt -u nullglob
    fi
done
((${#objects[@]} > 0)) || die "no ResourceKit object files in $bin"

# --- The playground's Sources, as a module of its own ---------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/resourcekit-playgrounds.XXXXXX")"
trap 'rm -rf "$work"' EXIT

shopt -s nullglob
sources=("$PLAYGROUND"/Sources/*.swift)
shopt -u nullglob
sources_flags=()
sources_objects=()
if ((${#sources[@]} > 0)); then
    bold "Compiling $PLAYGROUND/Sources (${#sources[@]} files) as module $SOURCES_MODULE"
    mkdir -p "$work/modules"
    swiftc "${SWIFTC_FLAGS[@]}" -parse-as-library -wmo -module-name "$SOURCES_MODULE" \
        -I "$modules" \
        -emit-module -emit-module-path "$work/modules/$SOURCES_MODULE.swiftmodule" \
        -emit-object -o "$work/$SOURCES_MODULE.o" \
        "${sources[@]}" ||
        die "$PLAYGROUND/Sources does not compile"
    sources_flags=(-I "$work/modules" -Xfrontend -import-module -Xfrontend "$SOURCES_MODULE")
    sources_objects=("$work/$SOURCES_MODULE.o")
fi
printf 'Built in %s\n' "$(seconds_since "$start")"

# --- The pages --------------------------------------------------------------------------------------------------------
# Line-buffer the pages' output so it interleaves correctly with their errors, even when a page crashes.
run=()
command -v stdbuf >/dev/null && run+=(stdbuf -oL -eL)
command -v timeout >/dev/null && run+=(timeout 120)

failed=()
index=0
for name in "${pages[@]}"; do
    index=$((index + 1))
    page="$PLAYGROUND/Pages/$name.xcplaygroundpage/Contents.swift"
    page_start="$(now)"
    printf '\n'
    bold "━━━ Page $index/${#pages[@]}: $name ━━━"
    printf '%s\n\n' "$page"

    # The page becomes main.swift, so its statements are top-level code; #sourceLocation points diagnostics (and
    # #filePath in a failed check) back at the page itself.
    dir="$work/page-$index"
    mkdir -p "$dir"
    {
        printf '#sourceLocation(file: "%s", line: 1)\n' "$page"
        cat "$page"
    } >"$dir/main.swift"

    if ! swiftc "${SWIFTC_FLAGS[@]}" -module-name "Page$index" \
        -I "$modules" ${sources_flags[@]+"${sources_flags[@]}"} \
        "$dir/main.swift" ${sources_objects[@]+"${sources_objects[@]}"} "${objects[@]}" \
        -o "$dir/page"; then
        bold "✗ $name does not compile"
        failed+=("$name (compile error)")
        continue
    fi

    set +e
    ${run[@]+"${run[@]}"} "$dir/page" 2>&1 | tee "$dir/output" | sed 's/^/    /'
    status="${PIPESTATUS[0]}"
    set -e

    if ((status != 0)); then
        bold "✗ $name exited with status $status"
        failed+=("$name (exit status $status)")
    elif [[ "$(tail -n 1 "$dir/output")" != "$name: all checks passed"* ]]; then
        bold "✗ $name did not end with \"$name: all checks passed\""
        failed+=("$name (no closing line)")
    else
        bold "✓ $name ($(seconds_since "$page_start"))"
    fi
done

printf '\n'
if ((${#failed[@]} > 0)); then
    bold "Playground pages failed: ${#failed[@]} of ${#pages[@]}"
    printf '  %s\n' "${failed[@]}"
    exit 1
fi
bold "All ${#pages[@]} playground pages compiled and passed their checks ($(seconds_since "$start"))."
