#!/usr/bin/env bash
# Install the oracle's npm packages (tests/oracle/node_modules) exactly as pinned in
# package-lock.json, when they are missing or older than the lock file. Idempotent: a
# second run with nothing changed does nothing. Needs node and npm on PATH (see
# .ci/install-deps) and the npm registry the first time.
set -euo pipefail
cd "$(dirname "$0")"

for tool in node npm; do
  if ! command -v "$tool" >/dev/null; then
    echo "ensure-deps: '$tool' not found; run 'sudo .ci/install-deps' first" >&2
    exit 1
  fi
done

# npm writes node_modules/.package-lock.json on every install; it is stale when the
# committed lock file or package.json is newer.
stamp=node_modules/.package-lock.json
fresh() { [[ -f $stamp && ! package-lock.json -nt $stamp && ! package.json -nt $stamp ]]; }
fresh && exit 0
# One installer at a time (parallel ctest runs, several build trees): `npm ci` deletes
# node_modules first, so a concurrent user would see it half-installed.
exec 9>.ensure-deps.lock
flock 9
fresh && exit 0
echo "ensure-deps: installing oracle packages (npm ci) in tests/oracle"
npm ci --no-audit --no-fund --loglevel=error
