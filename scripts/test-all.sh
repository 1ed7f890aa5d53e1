#!/usr/bin/env bash
# Every test from a fresh clone: installs pnpm and the dependencies, installs and starts the services the
# tests need (MariaDB, Redis; git, patch, python3 with pytest, bubblewrap), builds, type-checks, lints, runs every
# package's tests and prints one total. The MariaDB and Redis it starts are stopped at the end; in CI
# (CI=true) a MariaDB or Redis that cannot start fails the run instead of skipping its tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
bash scripts/tools.sh || echo "test-all: some tools could not be installed; tests that need them say so" >&2
source scripts/mariadb-for-tests.sh
source scripts/redis-for-tests.sh
pnpm build
pnpm typecheck
pnpm lint
# unused dependencies, files and exports (knip.json; a package's entries are its package.json exports)
pnpm knip
status=0
# results of an earlier run must not be counted as this run's; --continue runs every package's tests
find packages apps -name .vitest-result.json -not -path "*/node_modules/*" -delete
pnpm exec turbo run test --concurrency=2 --continue || status=$?
# the bench scripts' detector modules and the experiment and arm tables (node:test; they read the packages' dist)
node --test bench/behaviours/ bench/experiment-table.test.mjs bench/arm-table.test.mjs || status=$?
# Every public package packed, installed from its tarball alone into an empty npm project and smoke-run.
rm -f .pack-check-result.json
pack_status=0
node scripts/pack-check.mjs --result=.pack-check-result.json || pack_status=$?
node scripts/test-summary.mjs
if [ "$status" -eq 0 ]; then status=$pack_status; fi
exit $status
