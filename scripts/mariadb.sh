#!/usr/bin/env bash
# Installs (when missing) and starts a private MariaDB server for the tests, without systemd.
# Usage: scripts/mariadb.sh start|stop|status|url
# Data lives in .hs-services/mariadb (git-ignored); the server listens on 127.0.0.1, port HS_MYSQL_PORT or
# the first free port from 3307 (kept in .hs-services/mariadb/port).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir="$root/.hs-services/mariadb"
socket="$dir/server.sock"
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
if [ -n "${HS_MYSQL_PORT:-}" ]; then port="$HS_MYSQL_PORT"
elif [ -f "$dir/port" ]; then port=$(cat "$dir/port")
else port=3307; fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }

ensure_installed() {
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] && return 0
  echo "mariadb: installing Debian's mariadb-server (one time)..." >&2
  as_root apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq mariadb-server >&2
}

running() { [ -S "$socket" ] && mariadb-admin --no-defaults --socket="$socket" -uroot ping >/dev/null 2>&1; }

start() {
  if running; then echo "mysql://hs:hs@127.0.0.1:$port"; return 0; fi
  # Another server (e.g. a second checkout's) may hold the port: take the next free one.
  if [ -z "${HS_MYSQL_PORT:-}" ]; then while port_in_use "$port"; do port=$((port + 1)); done; fi
  ensure_installed || { echo "mariadb: could not install mariadb-server" >&2; return 1; }
  export PATH="$PATH:/usr/sbin"
  mkdir -p "$dir"
  echo "$port" >"$dir/port"
  if [ ! -d "$dir/data/mysql" ]; then
    mariadb-install-db --no-defaults --datadir="$dir/data" --user=root \
      --auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1 \
      || { cat "$dir/install.log" >&2; return 1; }
  fi
  nohup mariadbd --no-defaults --datadir="$dir/data" --socket="$socket" --port="$port" \
    --bind-address=127.0.0.1 --user=root --character-set-server=utf8mb4 \
    --collation-server=utf8mb4_general_ci --max-connections=500 --pid-file="$dir/server.pid" \
    >"$dir/server.log" 2>&1 &
  local server=$!
  # a server that aborts (a port taken, a bad data directory) ends the wait at once
  for _ in $(seq 1 200); do running && break; kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
  running || { echo "mariadb: server did not start; log follows" >&2; tail -n 30 "$dir/server.log" >&2; return 1; }
  mariadb --no-defaults --socket="$socket" -uroot -e \
    "CREATE USER IF NOT EXISTS 'hs'@'%' IDENTIFIED BY 'hs'; GRANT ALL ON *.* TO 'hs'@'%'; SET GLOBAL group_concat_max_len = 1024; FLUSH PRIVILEGES;"
  echo "mysql://hs:hs@127.0.0.1:$port"
}

server_pid() { [ -f "$dir/server.pid" ] && cat "$dir/server.pid"; }
# A pid file can outlive its server and the number be reused: only this checkout's mariadbd counts.
is_this_server() { ps -p "$1" -o args= 2>/dev/null | grep -q -- "mariadbd .*--datadir=$dir/data"; }

# Stops the server of this checkout and waits until its process has gone (up to 30 s, then SIGKILL).
stop() {
  local pid
  pid=$(server_pid || true)
  if running; then mariadb-admin --no-defaults --socket="$socket" -uroot shutdown || true; fi
  [ -n "$pid" ] || return 0
  for _ in $(seq 1 300); do is_this_server "$pid" || return 0; sleep 0.1; done
  echo "mariadb: server $pid did not stop in 30 s; killing it" >&2
  kill -9 "$pid" 2>/dev/null || true
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) running ;;
  url) echo "mysql://hs:hs@127.0.0.1:$port" ;;
  *) echo "usage: $0 start|stop|status|url" >&2; exit 2 ;;
esac
