#!/usr/bin/env bash
# Every test from a fresh clone: installs pnpm and the dependencies, installs and starts the services the
# tests need (MariaDB; git, patch, python3 with pytest, bubblewrap), builds, type-checks, lints, runs every
# package's tests and prints one total.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
bash scripts/tools.sh || echo "test-all: some tools could not be installed; tests that need them say so" >&2
if url=$(bash scripts/mariadb.sh start); then
  export HS_MYSQL_URL="$url"
  echo "test-all: MariaDB ready at $HS_MYSQL_URL" >&2
else
  echo "test-all: MariaDB could not be started; its tests will be skipped (see the messages above)" >&2
fi
pnpm build
pnpm typecheck
pnpm lint
status=0
# results of an earlier run must not be counted as this run's; --continue runs every package's tests
find packages apps -name .vitest-result.json -not -path "*/node_modules/*" -delete
pnpm exec turbo run test --concurrency=2 --continue || status=$?
# Every public package packed, installed from its tarball alone into an empty npm project and smoke-run.
rm -f .pack-check-result.json
pack_status=0
node scripts/pack-check.mjs --result=.pack-check-result.json || pack_status=$?
node scripts/test-summary.mjs
if [ "$status" -eq 0 ]; then status=$pack_status; fi
exit $status
