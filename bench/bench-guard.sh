#!/usr/bin/env bash
# TerminalGuard (what `essh exec` puts between a server and a terminal):
#   1. the filter alone, built with swiftc -O: 1 GiB of plain text     target: ≥ 1 GB/s
#   2. `essh exec` of 200 MB of text and of 200 MB of random bytes on a terminal (a pty, read by script(1) into
#      /dev/null), guarded vs --raw, and the same into a pipe (no filter)
# Writes bench/results/guard-$BENCH_DATE.md. Run through `make bench` (release build, servers started); part 1 alone:
# `bash bench/bench-guard.sh --filter-only`.
set -euo pipefail
cd "$(dirname "$0")/.."
work=bench/work/guard
mkdir -p "$work"
swiftc -O -wmo bench/guard/main.swift Sources/TextWidth/TerminalGuard.swift Sources/TextWidth/ControlPicture.swift \
    -o "$work/guard-bench"
filter=$("$work/guard-bench")
if [ "${1:-}" = --filter-only ]; then echo "$filter"; exit 0; fi

: "${ESSH:?run through make bench}"
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
out=bench/results/guard-$BENCH_DATE.md
essh="$ESSH exec --known-hosts $ESSH_TEST_KNOWN_HOSTS -i $ESSH_TEST_KEYS/id_ed25519 -p $ESSH_TEST_PORT"
dest="$ESSH_TEST_USER@$ESSH_TEST_HOST"
data=$ESSH_TEST_DATA_200M
text="yes 'The quick brown fox jumps over the lazy dog; 0123456789 and more text.' | head -c 200000000"
hyperfine --warmup 1 --runs "${BENCH_RUNS:-5}" --export-markdown "$work/text.md" \
    -n "text, on a terminal, guarded" "script -qec \"$essh $dest \\\"$text\\\"\" /dev/null > /dev/null" \
    -n "text, on a terminal, --raw" "script -qec \"$essh --raw $dest \\\"$text\\\"\" /dev/null > /dev/null" \
    -n "text, into a pipe" "$essh $dest \"$text\" | cat > /dev/null" > "$work/text.txt"
hyperfine --warmup 1 --runs "${BENCH_RUNS:-5}" --export-markdown "$work/binary.md" \
    -n "binary, on a terminal, guarded" "script -qec '$essh $dest cat $data' /dev/null > /dev/null" \
    -n "binary, on a terminal, --raw" "script -qec '$essh --raw $dest cat $data' /dev/null > /dev/null" \
    -n "binary, into a pipe" "$essh $dest cat $data | cat > /dev/null" > "$work/binary.txt"
{
    echo "# TerminalGuard throughput"
    echo
    bash bench/machine.sh
    echo
    echo "## The filter alone (\`swiftc -O\`, 32 KiB chunks)"
    echo
    echo "$filter"
    echo
    echo "## \`essh exec\` of 200 MB"
    echo
    echo "A terminal is a pty read by \`script -qec '…' /dev/null > /dev/null\` (the pty and script(1) cost the same"
    echo "with and without --raw). Text: \`$text\`. Binary: \`cat $data\` (random bytes: the"
    echo "guard shows about one byte in nine as a 3-byte control picture, so more reaches the pty)."
    echo
    cat "$work/text.md"
    echo
    cat "$work/binary.md"
} > "$out"
cat "$out"
