#!/usr/bin/env bash
# Installs (when missing) the command-line tools the benchmark tests run for real: git and patch (SWE-bench's
# patch application), python3 with pytest (test runs, agent code), bubblewrap (the per-episode sandbox),
# chromium (the dashboard's browser tests), redis-server (the rollout queue's tests).
# Debian's packages only; prints what it installs on stderr. Usage: bash scripts/tools.sh
set -euo pipefail
missing=()
command -v git >/dev/null 2>&1 || missing+=(git)
command -v patch >/dev/null 2>&1 || missing+=(patch)
# Debian's own interpreter: the bundled SWE-Gym repositories and the AppWorld shell run /usr/bin/python3
[ -x /usr/bin/python3 ] || missing+=(python3)
/usr/bin/python3 -c "import pytest" >/dev/null 2>&1 || missing+=(python3-pytest)
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# the dashboard's browser tests drive Debian's chromium
[ -x /usr/bin/chromium ] || missing+=(chromium)
# the rollout queue (BullMQ) runs on Debian's Redis 7
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi; }
echo "tools: installing Debian's ${missing[*]} (one time)..." >&2
as_root apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "${missing[@]}" >&2
