# Sourced by test-all.sh: starts the private MariaDB the tests use and exports HS_MYSQL_URL.
# The server this run starts is stopped when the run ends, however it ends (an EXIT trap in the
# sourcing shell); a server that was already running (scripts/mariadb.sh start by hand) is left as it
# was. When MariaDB cannot start, the run warns and its tests skip, except in CI (CI=true or 1), where a
# run that silently tests less must fail.
if ! bash scripts/mariadb.sh status; then
  trap 'bash scripts/mariadb.sh stop' EXIT
  # bash runs an EXIT trap on these signals only when they end the shell through exit
  trap 'exit 129' HUP
  trap 'exit 130' INT
  trap 'exit 143' TERM
fi
if url=$(bash scripts/mariadb.sh start); then
  export HS_MYSQL_URL="$url"
  echo "test-all: MariaDB ready at $HS_MYSQL_URL" >&2
elif [ "${CI:-}" = "true" ] || [ "${CI:-}" = "1" ]; then
  echo "test-all: MariaDB could not be started (see the messages above); CI=$CI, so the run fails" >&2
  exit 1
else
  echo "test-all: MariaDB could not be started; its tests will be skipped (see the messages above)" >&2
fi
