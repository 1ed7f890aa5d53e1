# Sourced by test-all.sh: starts the private Redis the queue tests use and exports HS_REDIS_URL.
# The server this run starts is stopped when the run ends, however it ends (an EXIT trap in the
# sourcing shell, chained after any trap already set, e.g. MariaDB's); a server that was already
# running (scripts/redis.sh start by hand) is left as it was. When Redis cannot start, the run warns and
# its tests skip, except in CI (CI=true or 1), where a run that silently tests less must fail.
if ! bash scripts/redis.sh status; then
  previous_exit_trap=$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")
  # shellcheck disable=SC2064
  trap "bash scripts/redis.sh stop; ${previous_exit_trap:-true}" EXIT
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
fi
if url=$(bash scripts/redis.sh start); then
  export HS_REDIS_URL="$url"
  echo "test-all: Redis ready at $HS_REDIS_URL" >&2
elif [ "${CI:-}" = "true" ] || [ "${CI:-}" = "1" ]; then
  echo "test-all: Redis could not be started (see the messages above); CI=$CI, so the run fails" >&2
  exit 1
else
  echo "test-all: Redis could not be started; the queue tests will be skipped (see the messages above)" >&2
fi
