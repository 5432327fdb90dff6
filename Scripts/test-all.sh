#!/usr/bin/env bash
# Runs every test: the root package's unit and README tests, then the integration suite against a real Hummingbird
# server (IntegrationTests/, whose first build fetches and compiles Hummingbird and AsyncHTTPClient: several minutes),
# which runs each test that talks to the server with both of ResourceKit's transports, URLSession and AsyncHTTPClient.
# Exits non-zero if any test fails, and ends with one summary line.
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {
    sed -nE 's/.*Test run with ([0-9]+) tests? in .* passed.*/\1/p' "$log" | tail -n 1
}

echo "== Unit and README tests (swift test)"
swift test 2>&1 | tee "$log"
unit=$(count)
[ -n "$unit" ] || { echo "swift test reported no passing test run"; exit 1; }

# The TLS integration tests make their test CA and certificates with the openssl CLI, and check what stock nginx
# answers a client certificate it refuses (Debian installs it in /usr/sbin, which a user's PATH may lack).
missing=()
command -v openssl > /dev/null || missing+=(openssl)
[ -x /usr/sbin/nginx ] || command -v nginx > /dev/null || missing+=(nginx)
if [ ${#missing[@]} -gt 0 ]; then
    echo "== Installing ${missing[*]} (apt-get install -y), which the TLS integration tests need"
    apt-get install -y "${missing[@]}" || { apt-get update && apt-get install -y "${missing[@]}"; }
fi

echo "== Integration tests, each with URLSession and with AsyncHTTPClient (swift test --package-path IntegrationTests)"
# The suites that stream files, move gigabytes or measure memory (MemoryHungryTests) run on their own afterwards, so
# that they neither starve the timing-sensitive tests of CPU nor see others' allocations.
swift test --package-path IntegrationTests --skip MemoryHungryTests 2>&1 | tee "$log"
integration=$(count)
[ -n "$integration" ] || { echo "the integration suite reported no passing test run"; exit 1; }
# A test that talks to the server runs once per transport: `test(kind:)` with kind → urlSession, → asyncHTTPClient.
cases() { grep -c "Test case passing .*kind → $1" "$log" || true; }
session=$(cases urlSession)
ahc=$(cases asyncHTTPClient)

echo "== Memory-hungry integration tests (swift test --package-path IntegrationTests --filter MemoryHungryTests)"
swift test --package-path IntegrationTests --skip-build --filter MemoryHungryTests 2>&1 | tee "$log"
hungry=$(count)
[ -n "$hungry" ] || { echo "the memory-hungry suites reported no passing test run"; exit 1; }
integration=$((integration + hungry))
session=$((session + $(cases urlSession)))
ahc=$((ahc + $(cases asyncHTTPClient)))

echo "tests: $unit unit and README tests passed, $integration integration tests passed" \
    "($session test cases with URLSession, $ahc with AsyncHTTPClient), 0 failed"
