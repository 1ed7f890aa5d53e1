#!/usr/bin/env bash
# Installs (when missing) and starts a private Redis server for the tests (the rollout queue), without systemd.
# Usage: scripts/redis.sh start|stop|status|url
# Data lives in .hs-services/redis (git-ignored); the server listens on 127.0.0.1 only, port HS_REDIS_PORT or
# the first free port from 6380 (kept in .hs-services/redis/port), without persistence to disk.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.hs-services/redis"
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -n "${HS_REDIS_PORT:-}" ]; then port="$HS_REDIS_PORT"
elif [ -f "$dir/port" ]; then port=$(cat "$dir/port")
else port=6380; fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

ensure_installed() {
  command -v redis-server >/dev/null 2>&1 && return 0
  echo "redis: installing Debian's redis-server (one time)..." >&2
  as_root apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >&2
}

running() { [ -f "$dir/server.pid" ] && redis-cli -h 127.0.0.1 -p "$port" ping 2>/dev/null | grep -q PONG; }

start() {
  if running; then echo "redis://127.0.0.1:$port"; return 0; fi
  # Another server (a second checkout's, the system's) may hold the port: take the next free one.
  if [ -z "${HS_REDIS_PORT:-}" ]; then while port_in_use "$port"; do port=$((port + 1)); done; fi
  ensure_installed || { echo "redis: could not install redis-server" >&2; return 1; }
  mkdir -p "$dir"
  echo "$port" >"$dir/port"
  # BullMQ needs maxmemory-policy noeviction (an evicted job key would lose a rollout)
  nohup redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
    --maxmemory-policy noeviction --pidfile "$dir/server.pid" --daemonize no \
    >"$dir/server.log" 2>&1 &
  local server=$!
  echo "$server" >"$dir/server.pid"
  for _ in $(seq 1 100); do running && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  running || { echo "redis: server did not start; log follows" >&2; tail -n 30 "$dir/server.log" >&2; return 1; }
  echo "redis://127.0.0.1:$port"
}

server_pid() { [ -f "$dir/server.pid" ] && cat "$dir/server.pid"; }
# A pid file can outlive its server and the number be reused: only this checkout's redis-server counts.
is_this_server() { ps -p "$1" -o args= 2>/dev/null | grep -q -- "redis-server 127.0.0.1:$port"; }

# Stops the server of this checkout and waits until its process has gone (up to 10 s, then SIGKILL).
stop() {
  local pid
  pid=$(server_pid || true)
  if running; then redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || true; fi
  [ -n "$pid" ] || return 0
  for _ in $(seq 1 100); do is_this_server "$pid" || { rm -f "$dir/server.pid"; return 0; }; sleep 0.1; done
  echo "redis: server $pid did not stop in 10 s; killing it" >&2
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$dir/server.pid"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) running ;;
  url) echo "redis://127.0.0.1:$port" ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
