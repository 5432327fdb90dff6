#!/usr/bin/env bash
# Runs every test: the root package's unit and README tests, then the integration suite against a real Hummingbird
# server (IntegrationTests/, whose first build fetches and compiles Hummingbird: a few minutes), once with ResourceKit's
# URLSession transport and once with its AsyncHTTPClient transport (the AsyncHTTPClient trait).
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

# The TLS integration tests make their test CA and certificates with the openssl CLI.
if ! command -v openssl > /dev/null; then
    echo "== Installing openssl (apt-get install -y openssl), which the TLS integration tests need"
    apt-get install -y openssl || { apt-get update && apt-get install -y openssl; }
fi

echo "== Integration tests with URLSession (swift test --package-path IntegrationTests)"
swift test --package-path IntegrationTests 2>&1 | tee "$log"
integration=$(count)
[ -n "$integration" ] || { echo "the integration suite reported no passing test run"; exit 1; }

echo "== Integration tests with AsyncHTTPClient (swift test --package-path IntegrationTests --traits AsyncHTTPClient)"
swift test --package-path IntegrationTests --traits AsyncHTTPClient 2>&1 | tee "$log"
ahc=$(count)
[ -n "$ahc" ] || { echo "the integration suite with AsyncHTTPClient reported no passing test run"; exit 1; }

echo "tests: $unit unit and README tests passed, $integration integration tests passed with URLSession" \
    "and $ahc with AsyncHTTPClient, 0 failed"
