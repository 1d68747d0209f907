#!/usr/bin/env bash
# A fleet on this machine: three `swisspair serve` processes on loopback behind nginx
# (Debian's package, installed here if missing; grpc_pass to an upstream of the three).
# Runs the load generator (1) on one replica directly, (2) through nginx on the three,
# showing the spread of the requests from each replica's metrics, and (3) through nginx
# again while one replica is killed (SIGKILL) mid-load: with --retries no request is lost.
#
# Usage: deploy/local-fleet.sh [SECONDS] [CONCURRENCY]    (defaults: 10 s, 8 clients)
# Env:   SWISSPAIR=path/to/swisspair (default: builds target/release/swisspair)
#        SCENARIO=dutch100|dutch500|javapairing|backgammon (default dutch100)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
concurrency=${2:-8}
scenario=${SCENARIO:-dutch100}
work=target/fleet
mkdir -p "$work"
work=$(cd "$work" && pwd)

if [ -z "${SWISSPAIR:-}" ]; then
  cargo build --release --quiet --bin swisspair
  SWISSPAIR=$PWD/target/release/swisspair
fi

if ! command -v nginx >/dev/null 2>&1; then
  echo "== installing nginx (Debian package)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nginx-light >/dev/null 2>&1 || apt-get install -y -qq nginx >/dev/null
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -f "$work/nginx.pid" ]; then kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; fi
}
trap cleanup EXIT

ports=(50061 50062 50063)
metrics=(9191 9192 9193)
for i in 0 1 2; do
  "$SWISSPAIR" serve --listen "127.0.0.1:${ports[$i]}" --metrics-listen "127.0.0.1:${metrics[$i]}" \
    --log-format json --drain-seconds 0 --grace-seconds 5 >"$work/replica$((i + 1)).log" 2>&1 &
  pids+=($!)
done

cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx-body;
    proxy_temp_path $work/nginx-proxy;
    fastcgi_temp_path $work/nginx-fastcgi;
    uwsgi_temp_path $work/nginx-uwsgi;
    scgi_temp_path $work/nginx-scgi;
    upstream swisspair {
        server 127.0.0.1:${ports[0]};
        server 127.0.0.1:${ports[1]};
        server 127.0.0.1:${ports[2]};
        keepalive 32;
        # Connections to the replicas are reused for good (default: closed every 1,000).
        keepalive_requests 1000000;
    }
    server {
        listen 127.0.0.1:8080 http2;
        # nginx closes a client's HTTP/2 connection after 1,000 requests by default (GOAWAY),
        # which a busy gRPC client sees as calls cancelled: keep it open.
        keepalive_requests 1000000;
        keepalive_timeout 300s;
        location / {
            grpc_pass grpc://swisspair;
            # A replica that refuses the connection or fails is skipped for the next one;
            # non_idempotent: every gRPC call is a POST, and Pair is idempotent (stateless).
            grpc_next_upstream error timeout http_502 http_503 http_504 non_idempotent;
            grpc_next_upstream_tries 3;
        }
    }
}
NGINX
"$nginx_bin" -t -q -c "$work/nginx.conf" -p "$work" || { cat "$work/nginx-error.log" >&2; exit 1; }
"$nginx_bin" -c "$work/nginx.conf" -p "$work" -g 'daemon on;'

# Wait for the replicas and nginx to answer.
for port in "${ports[@]}" 8080; do
  for _ in $(seq 100); do
    "$SWISSPAIR" client --addr "127.0.0.1:$port" systems >/dev/null 2>&1 && break
    sleep 0.1
  done
done

# Pair requests answered OK by each replica, from its Prometheus endpoint.
served() {
  local out=()
  for m in "${metrics[@]}"; do
    n=$( (exec 3<>"/dev/tcp/127.0.0.1/$m" && printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n' >&3 && cat <&3) 2>/dev/null \
      | awk '/^swisspair_requests_total\{/ && /rpc="Pair"/ && /code="OK"/ {s += $NF} END {print s + 0}')
    out+=("$n")
  done
  echo "${out[*]}"
}

load() {
  "$SWISSPAIR" loadtest --scenario "$scenario" --seconds "$seconds" --concurrency "$concurrency" "$@"
}

echo "== 1 replica (direct, 127.0.0.1:${ports[0]})"
load --addr "127.0.0.1:${ports[0]}"

echo "== 3 replicas through nginx (127.0.0.1:8080)"
before=($(served))
load --addr 127.0.0.1:8080 --connections 4 || true
after=($(served))
echo "requests served per replica: $((after[0] - before[0])) $((after[1] - before[1])) $((after[2] - before[2]))"

echo "== 3 replicas through nginx, replica 2 killed (SIGKILL) after $((seconds / 3)) s, client retries UNAVAILABLE"
before=($(served))
( sleep $((seconds / 3)); kill -9 "${pids[1]}"; echo "(killed replica 2, pid ${pids[1]})" ) &
killer=$!
set +e
load --addr 127.0.0.1:8080 --connections 4 --retries 5
status=$?
set -e
wait "$killer" || true
after=($(served))
echo "requests served per replica: $((after[0] - before[0])) (replica 2 killed: its count is gone with it) $((after[2] - before[2]))"
if [ "$status" -ne 0 ]; then
  echo "local-fleet: requests were lost" >&2
  exit 1
fi
echo "local-fleet: no request lost"
