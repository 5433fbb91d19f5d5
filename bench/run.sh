#!/usr/bin/env bash
# `make bench`: runs every bench/bench-*.sh in name order with the release binary and the test servers running.
# Each script writes bench/results/<name>-<date>.md (date, machine, versions, the exact commands, ratios).
set -uo pipefail
cd "$(dirname "$0")/.."
export ESSH=${ESSH:-$PWD/.build/release/essh}
export ESSH_TEST_SERVERS=${ESSH_TEST_SERVERS:-$PWD/.test-servers/servers.env}
export BENCH_DATE=$(date -u +%Y-%m-%d)
mkdir -p bench/results bench/work
rc=0
for script in bench/bench-*.sh; do
    [ -e "$script" ] || continue
    if [ -n "${BENCH_ONLY:-}" ] && [[ "$script" != *"$BENCH_ONLY"* ]]; then continue; fi
    echo "== $script"
    bash "$script" || { echo "bench: $script failed" >&2; rc=1; }
done
exit $rc
