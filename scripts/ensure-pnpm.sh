#!/usr/bin/env bash
# Makes pnpm 12.4.2 available on a machine that has only Node 20 and npm. Source it: it may extend PATH.
want=12.4.2
if [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  echo "setup: installing pnpm $want with npm..." >&2
  if ! npm install -g "pnpm@$want" >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
    prefix="$HOME/.hs-tools"
    npm install --prefix "$prefix" "pnpm@$want" >/dev/null 2>&1 || { echo "setup: could not install pnpm $want" >&2; return 1 2>/dev/null || exit 1; }
    export PATH="$prefix/node_modules/.bin:$PATH"
  fi
fi
export TURBO_TELEMETRY_DISABLED=1
export npm_config_nodedir="${npm_config_nodedir:-/usr}"
