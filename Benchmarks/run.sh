#!/usr/bin/env bash
# ResourceKit's benchmarks: the library against raw URLSession and raw AsyncHTTPClient, side by side, with nginx
# serving generated fixtures on loopback. Arguments go to the benchmark executable:
#
#   Benchmarks/run.sh                    # the full run, about 5 minutes
#   Benchmarks/run.sh --quick            # a smoke test
#   Benchmarks/run.sh --only parse       # one section: parse, urlsession, ahc, memory, cache, headers or streams
#   Benchmarks/run.sh --rounds 9
#   Benchmarks/run.sh --instructions     # adds callgrind's instructions per load, a few minutes more
#
# Set BENCH_PORT to choose the port (default: the first free one from 18080), and BENCH_JSONL_MIB the size of the
# streams' JSON Lines fixture (default 256, 16 with --quick).
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo > /dev/null; then
        sudo "$@"
    else
        echo "run.sh: $* needs root; install nginx and wrk first" >&2
        exit 1
    fi
}

apt_updated=false
install_if_missing() {  # command, then the Debian packages to try in order
    local command=$1
    shift
    command -v "$command" > /dev/null && return
    if [ "$apt_updated" = false ]; then
        as_root apt-get update -qq
        apt_updated=true
    fi
    for package in "$@"; do
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package" > /dev/null && return
    done
    echo "run.sh: could not install $command" >&2
    exit 1
}
# nginx is found in /usr/sbin, which a non-root PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"
install_if_missing nginx nginx-light nginx
install_if_missing wrk wrk
for argument in "$@"; do
    if [[ $argument == --instructions || $argument == *instructions* ]]; then
        install_if_missing valgrind valgrind
        install_if_missing objcopy binutils
    fi
done

echo "Building (release)…"
swift build -c release --package-path Benchmarks
bench="$(swift build -c release --package-path Benchmarks --show-bin-path)/resourcekit-bench"

work=$(mktemp -d "${TMPDIR:-/tmp}/resourcekit-bench.XXXXXX")
nginx_pid=""
cleanup() {
    if [ -n "$nginx_pid" ]; then
        kill "$nginx_pid" 2> /dev/null || true
        wait "$nginx_pid" 2> /dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

jsonl_mib=${BENCH_JSONL_MIB:-256}
for argument in "$@"; do
    if [ "$argument" = --quick ] && [ -z "${BENCH_JSONL_MIB:-}" ]; then
        jsonl_mib=16
    fi
done
echo "Generating fixtures in $work/www…"
"$bench" generate "$work/www" --jsonl-mib "$jsonl_mib"

port_is_free() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
port=${BENCH_PORT:-}
if [ -z "$port" ]; then
    for candidate in $(seq 18080 18120); do
        if port_is_free "$candidate"; then
            port=$candidate
            break
        fi
    done
fi
if [ -z "$port" ] || ! port_is_free "$port"; then
    echo "run.sh: no free port (set BENCH_PORT)" >&2
    exit 1
fi

# A master run as root would start its workers as nobody, who can't read the temporary directory.
user_line=""
if [ "$(id -u)" -eq 0 ]; then
    user_line="user $(id -un) $(id -gn);"
fi
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" << CONF
$user_line
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events {
    worker_connections 1024;
}
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 120s;
    keepalive_requests 1000000;
    client_body_temp_path $work/nginx/client_body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    types {
        application/json json;
        application/jsonl jsonl;
        text/event-stream sse;
        application/octet-stream bin;
    }
    default_type application/octet-stream;
    server {
        listen 127.0.0.1:$port;
        root $work/www;
    }
}
CONF
nginx -p "$work/nginx" -e "$work/nginx/error.log" -c "$work/nginx/nginx.conf" &
nginx_pid=$!
for _ in $(seq 1 100); do
    port_is_free "$port" || break
    if ! kill -0 "$nginx_pid" 2> /dev/null; then
        echo "run.sh: nginx failed to start:" >&2
        cat "$work/nginx/error.log" >&2 || true
        exit 1
    fi
    sleep 0.1
done
if port_is_free "$port"; then
    echo "run.sh: nginx did not start listening on 127.0.0.1:$port" >&2
    exit 1
fi
echo "$(nginx -v 2>&1) on 127.0.0.1:$port (1 worker, keep-alive); $(swift --version 2> /dev/null | head -n 1)"

"$bench" "http://127.0.0.1:$port" --fixtures "$work/www" "$@"
