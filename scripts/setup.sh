#!/usr/bin/env bash
# One command from a fresh clone: installs pnpm and the dependencies, builds, then runs `hs ARGS...`.
# Usage: bash scripts/setup.sh [hs arguments...]   (no arguments: only set up)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
pnpm build
if [ $# -gt 0 ]; then exec node apps/trainer/dist/cli.js "$@"; fi
