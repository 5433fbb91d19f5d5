#!/usr/bin/env bash
# libFuzzer over eSSH's readers of untrusted text: one fuzz binary per target, each built with swiftc from the
# source files it needs (never a SwiftPM target: SwiftPM renames an executable's main to <Target>_main and the link
# against libFuzzer's main fails, and Inventory and SSH pull in GRDB and swift-crypto, which swiftc cannot build on
# its own). Each module the target needs is compiled into a static library with the fuzzer's coverage and
# AddressSanitizer, optimised (-O: about 7 times the executions per second of -Onone, docs/DECISIONS.md
# 2026-11-24); Inventory and SSH only from their files that need neither GRDB nor swift-crypto, with
# Shims/Crypto.swift standing in for swift-crypto's HMAC-SHA1 and SHA-256 (computed by OpenSSL).
#
#   fuzz.sh list                 the targets and what each fuzzes
#   fuzz.sh build [TARGET...]    build (all targets when none is named) into .build-fuzz/
#   fuzz.sh run [TARGET...]      build, then fuzz each for FUZZ_SECONDS (default 60); inputs that add coverage go to
#                                .build-fuzz/corpus/TARGET, crashes and hangs to .build-fuzz/crashes/TARGET-*
#   fuzz.sh merge [TARGET...]    minimise the kept corpus Tests/Fuzz/corpus/TARGET with what runs found (-merge=1)
#   fuzz.sh replay [TARGET...]   run every input of the kept corpus once (no fuzzing): a regression check
#   fuzz.sh speed [TARGET...]    executions per CPU second of -Onone and -O with AddressSanitizer and of -O without,
#                                on the same work (the working corpus, then mutations from one seed)
#
# Environment: FUZZ_SECONDS; FUZZ_OPT (O or Onone); FUZZ_SANITIZE (address, or none for coverage only);
# FUZZ_ARGS (more libFuzzer flags, e.g. "-runs=100000 -seed=1"); FUZZ_LOG (a file: one line per run with the target,
# seconds, executions, exec/s, cov, ft and corpus size, for bench/results/fuzz-*.md); ESSH_SHARED_FIXTURES (the
# shared network corpus, read in place, never copied: default ../shared/fixtures/network beside the checkout).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
FUZZ="Tests/Fuzz"
OPT="${FUZZ_OPT:-O}"
SANITIZE="${FUZZ_SANITIZE:-address}"
SECONDS_EACH="${FUZZ_SECONDS:-60}"
SHARED="${ESSH_SHARED_FIXTURES:-$ROOT/../shared/fixtures/network}"
case "$SANITIZE" in
    none) SANITIZERS="fuzzer" ;;
    *) SANITIZERS="fuzzer,$SANITIZE" ;;
esac
OUT=".build-fuzz/$OPT-${SANITIZE}"
# libssh2 as `make build` links it: always the one built from Debian's source with eSSH's patches.
PKG_CONFIG_PATH="$(Sources/CLibSSH2/libssh2-from-debian.sh pkg-config-path)${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
# A broken property or a trap goes straight to libFuzzer, which saves the input (Swift's own backtracer trips
# AddressSanitizer while it reads the crashed process).
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

TARGETS=(netparsers sshconfig knownhosts banner destination mail sanitizer)
declare -A ABOUT=(
    [netparsers]="every NetParsers parser on the same bytes, then the table and the JSON"
    [sshconfig]="the ssh_config reader (Include through an in-memory source) and its lookup of one name"
    [knownhosts]="known_hosts lines, host pattern lists, hashed names, wildcards against a reference"
    [banner]="the check's SSH banner verdict and the KEXINIT reader, whole and in chunks"
    [destination]="DEST as [user@]host[:port], its known_hosts name"
    [mail]="mail addresses, header checks, encoded words, quoted-printable and a composed message"
    [sanitizer]="TextSanitizer: never ESC, C1 or another control; a CR only alone under .overwrite; chunked equals whole"
)
# The modules each target links, dependencies first.
declare -A MODULES=(
    [netparsers]="TextWidth Basics NetParsers"
    [sshconfig]="Basics Inventory"
    [knownhosts]="Basics LocalProcess Crypto SSH"
    [banner]="Basics LocalProcess Crypto SSH Reachability"
    [destination]="Basics LocalProcess Crypto SSH"
    [mail]="Basics LocalProcess Mail"
    [sanitizer]="TextWidth"
)
# Largest input libFuzzer makes for a target: room for the real thing several times over.
declare -A MAX_LEN=(
    [netparsers]=16384 [sshconfig]=8192 [knownhosts]=8192 [banner]=12288 [destination]=512 [mail]=8192
    [sanitizer]=8192
)
# Seed folders read in place besides the kept corpus (missing ones are skipped).
declare -A SEEDS=(
    [netparsers]="Tests/NetParsersTests/Fixtures $SHARED"
    [banner]="Tests/SSHTests/Fixtures"
)

# Each module's sources. Inventory and SSH: only the files the targets use that import neither GRDB nor
# swift-crypto (Crypto is the shim).
declare -A SOURCES=(
    [TextWidth]="Sources/TextWidth/*.swift"
    [NetParsers]="Sources/NetParsers/*.swift"
    [Basics]="Sources/Basics/*.swift"
    [LocalProcess]="Sources/LocalProcess/*.swift"
    [Mail]="Sources/Mail/*.swift"
    [Reachability]="Sources/Reachability/*.swift"
    [Inventory]="Sources/Inventory/SSHConfigReader.swift Sources/Inventory/SSHConfigSource.swift
        Sources/Inventory/SSHConfigHost.swift Sources/Inventory/SSHConfigLookup.swift
        Sources/Inventory/SSHConfigForward.swift
        Sources/Inventory/SSHConfigReader+Lookup.swift Sources/Inventory/PathExpansion.swift
        Sources/Inventory/AlgorithmChoices.swift Sources/Inventory/InventoryError.swift"
    [SSH]="Sources/SSH/KnownHosts.swift Sources/SSH/HostKey.swift Sources/SSH/SSHError.swift
        Sources/SSH/Destination.swift Sources/SSH/KexInit.swift Sources/SSH/Algorithms.swift Sources/SSH/SSHLibrary.swift"
    [Crypto]="$FUZZ/Shims/Crypto.swift"
)

die() { printf 'fuzz: %s\n' "$*" >&2; exit 1; }

# C modules: the system-library shims the Swift modules import, and what the final link needs for them.
c_flags() {
    local flag
    printf '%s\n' -I Sources/CLibSSH2 -I Sources/CEpoll -I "$FUZZ/Shims/CFuzzOpenSSL"
    for flag in $(pkg-config --cflags libssh2); do printf '%s\n' -Xcc "$flag"; done
}
# libssh2's -L and -l (swiftc refuses pkg-config's -pthread, which Swift programs have anyway).
link_flags() {
    case " ${MODULES[$1]} " in
        *" SSH "*) pkg-config --libs --static libssh2 | tr ' ' '\n' | grep -E '^-[lL]' ;;
    esac
}

swiftc_common() {
    printf '%s\n' "-$OPT" -g "-sanitize=$SANITIZERS" -swift-version 6 -parse-as-library -use-ld=lld -I "$OUT/modules"
    c_flags
}

# Rebuilds a module when any of its files (or this script) is newer than its library.
build_module() {
    local name="$1" lib="$OUT/lib/lib$1.a" files
    # shellcheck disable=SC2206
    files=(${SOURCES[$name]})
    if [ -f "$lib" ] && [ -z "$(find "${files[@]}" "$0" -newer "$lib" 2>/dev/null | head -1)" ]; then return; fi
    echo "fuzz: compiling $name ($OPT, $SANITIZERS)" >&2
    mapfile -t common < <(swiftc_common)
    # The modules' own warnings are the normal build's business.
    swiftc "${common[@]}" -suppress-warnings -enable-testing -module-name "$name" -emit-module -emit-module-path \
        "$OUT/modules/$name.swiftmodule" -emit-library -static -o "$lib" "${files[@]}"
}

build_target() {
    local target="$1" bin="$OUT/bin/$1" module libs=()
    [ -n "${MODULES[$target]:-}" ] || die "no target '$target' (fuzz.sh list)"
    mkdir -p "$OUT/lib" "$OUT/modules" "$OUT/bin"
    for module in ${MODULES[$target]}; do
        build_module "$module"
        libs+=("$OUT/lib/lib$module.a")
    done
    local entry="$FUZZ/Targets/$target.swift"
    if [ -f "$bin" ] && [ -z "$(find "$entry" "$FUZZ/Targets/Support" "${libs[@]}" "$0" -newer "$bin" | head -1)" ]; then
        return
    fi
    echo "fuzz: linking $target" >&2
    mapfile -t common < <(swiftc_common)
    mapfile -t link < <(link_flags "$target")
    swiftc "${common[@]}" -module-name "Fuzz_$target" "$entry" "$FUZZ"/Targets/Support/*.swift "${libs[@]}" \
        "${link[@]}" -o "$bin"
}

# The folders libFuzzer reads: the working corpus first (new inputs are written there), the kept one, the
# hand-written seeds (Tests/Fuzz/seeds/TARGET, readable names), the fixtures.
corpus_dirs() {
    local target="$1" dir
    mkdir -p ".build-fuzz/corpus/$target" "$FUZZ/corpus/$target"
    printf '%s\n' ".build-fuzz/corpus/$target" "$FUZZ/corpus/$target"
    for dir in "$FUZZ/seeds/$target" ${SEEDS[$target]:-}; do [ -d "$dir" ] && printf '%s\n' "$dir"; done
    return 0
}

dict_flag() { [ -f "$FUZZ/dict/$1.dict" ] && printf '%s\n' "-dict=$FUZZ/dict/$1.dict"; return 0; }

run_target() {
    local target="$1" log status=0
    mkdir -p .build-fuzz/crashes .build-fuzz/logs
    log=".build-fuzz/logs/$target-$(date +%Y%m%d-%H%M%S).log"
    mapfile -t dirs < <(corpus_dirs "$target")
    mapfile -t dict < <(dict_flag "$target")
    # shellcheck disable=SC2206
    local extra=(${FUZZ_ARGS:-})
    echo "fuzz: $target for ${SECONDS_EACH}s (${ABOUT[$target]}); log $log" >&2
    "$OUT/bin/$target" "${dirs[@]}" -max_total_time="$SECONDS_EACH" -max_len="${MAX_LEN[$target]}" -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix=".build-fuzz/crashes/$target-" -print_final_stats=1 "${dict[@]}" \
        "${extra[@]}" > "$log" 2>&1 || status=$?
    summarise "$target" "$log" "$status"
    return "$status"
}

# One line per run: what bench/results/fuzz-*.md records.
summarise() {
    local target="$1" log="$2" status="$3" line
    line="$(awk -v t="$target" -v s="$status" -v opt="$OPT-$SANITIZE" '
        /^#[0-9]+.*(DONE|INITED|pulse|NEW|REDUCE)/ { for (i = 1; i <= NF; i++) { if ($i == "cov:") cov = $(i+1);
            if ($i == "ft:") ft = $(i+1); if ($i == "corp:") corp = $(i+1) } }
        /stat::number_of_executed_units/ { runs = $2 } /stat::average_exec_per_sec/ { eps = $2 }
        /stat::slowest_unit_time_sec/ { slow = $2 } /stat::peak_rss_mb/ { rss = $2 }
        /^SUMMARY: |ERROR: libFuzzer|Fatal error:/ { finding = finding $0 " " }
        END { printf "%s build=%s status=%s executions=%s exec/s=%s cov=%s ft=%s corpus=%s slowest=%ss rss=%sMB%s\n",
            t, opt, s, runs, eps, cov, ft, corp, slow, rss, (finding == "" ? "" : " finding: " finding) }' "$log")"
    echo "$line"
    if [ -n "${FUZZ_LOG:-}" ]; then echo "$(date -u +%FT%TZ) seconds=$SECONDS_EACH $line" >> "$FUZZ_LOG"; fi
}

# The kept corpus: the fewest inputs that reach every edge the runs reached (-use_counters=0: edges, not hit counts,
# so it stays small) beyond what the seeds and fixtures reach, which are read in place and never copied in: they
# go into the merge first, so their edges count as covered, and are taken out after.
# Inputs that grew out of the shared corpus carry its text, which must not enter the repository either: a run's
# input holding any word of 6 or more characters that the shared files have and the project's own fixtures and seeds
# do not (a host name, a MAC address) is left out of the kept corpus.
merge_target() {
    local target="$1" kept="$FUZZ/corpus/$1" fresh candidates dir file
    fresh="$(mktemp -d .build-fuzz/merge-XXXXXX)"
    candidates="$(mktemp -d .build-fuzz/merge-XXXXXX)"
    mapfile -t dirs < <(corpus_dirs "$target")
    for dir in "${dirs[@]:2}"; do
        find "$dir" -type f | while read -r file; do
            cp "$file" "$fresh/seed-$(sha1sum < "$file" | cut -c1-40)"
        done
    done
    cp "${dirs[0]}"/* "${dirs[1]}"/* "$candidates"/ 2>/dev/null || true
    if [[ " ${dirs[*]:2} " == *" $SHARED "* ]]; then
        shared_words "$target" > .build-fuzz/logs/shared-words.txt
        grep -rlaFf .build-fuzz/logs/shared-words.txt "$candidates" | xargs -r rm -f
    fi
    "$OUT/bin/$target" -merge=1 -use_counters=0 -max_len="${MAX_LEN[$target]}" -timeout=10 "$fresh" "$candidates" \
        > ".build-fuzz/logs/$target-merge.log" 2>&1 || die "merge of $target failed: .build-fuzz/logs/$target-merge.log"
    rm -rf "$candidates"
    rm -f "$fresh"/seed-*
    rm -rf "$kept"
    mv "$fresh" "$kept"
    echo "fuzz: $target kept corpus: $(find "$kept" -type f | wc -l) inputs, $(du -sk --apparent-size "$kept" | cut -f1) KiB" >&2
}

# Words of 6 or more characters in the shared corpus that the target's other seed folders do not hold.
shared_words() {
    local own dir
    own="$(mktemp .build-fuzz/words-XXXXXX)"
    for dir in $(corpus_dirs "$1" | tail -n +3); do
        [ "$dir" = "$SHARED" ] || find "$dir" -type f -exec cat {} +
    done | tr -s ' \t\r\n' '\n' | sort -u > "$own"
    find "$SHARED" -type f -exec cat {} + | tr -s ' \t\r\n' '\n' | awk 'length >= 6' | sort -u | comm -23 - "$own"
    rm -f "$own"
}

replay_target() {
    local target="$1"
    mapfile -t files < <(find "$FUZZ/corpus/$target" -type f | sort)
    [ "${#files[@]}" -gt 0 ] || { echo "fuzz: $target has no kept corpus" >&2; return 0; }
    "$OUT/bin/$target" -runs=1 "${files[@]}" > ".build-fuzz/logs/$target-replay.log" 2>&1 \
        || die "$target failed on its kept corpus: .build-fuzz/logs/$target-replay.log"
    echo "fuzz: $target replayed ${#files[@]} inputs" >&2
}

# Executions per CPU second of each build on the same work: the target's working corpus run once, then the same
# number of mutations from the same seed (-runs, -seed=1; new inputs go to a scratch folder). CPU time, not wall
# time, so other work on the machine does not count. Builds the variants it measures.
declare -A SPEED_RUNS=(
    [netparsers]=5000 [sshconfig]=20000 [knownhosts]=50000 [banner]=100000 [destination]=100000 [mail]=20000
    [sanitizer]=100000
)
speed_target() {
    local target="$1" variant scratch log runs cpu
    [ -n "$(find ".build-fuzz/corpus/$target" -type f 2>/dev/null | head -1)" ] \
        || { echo "fuzz: $target has no working corpus yet (fuzz.sh run $target)" >&2; return 0; }
    for variant in Onone-address O-address O-none; do
        FUZZ_OPT="${variant%-*}" FUZZ_SANITIZE="${variant#*-}" "$0" build "$target"
        scratch="$(mktemp -d .build-fuzz/speed-XXXXXX)"
        log=".build-fuzz/logs/$target-speed-$variant.log"
        /usr/bin/time -o .build-fuzz/logs/speed.time -f '%U %S' ".build-fuzz/$variant/bin/$target" "$scratch" \
            ".build-fuzz/corpus/$target" -runs="${SPEED_RUNS[$target]}" -seed=1 -max_len="${MAX_LEN[$target]}" \
            -print_final_stats=1 > "$log" 2>&1 || true
        rm -rf "$scratch"
        runs="$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")"
        cpu="$(awk 'END { print $1 + $2 }' .build-fuzz/logs/speed.time)"
        awk -v t="$target" -v v="$variant" -v n="$runs" -v c="$cpu" \
            'BEGIN { printf "%s %s executions=%d cpu=%.2fs exec/cpu-s=%.0f\n", t, v, n, c, n / c }'
    done
}

command="${1:-run}"
shift || true
[ $# -gt 0 ] || set -- "${TARGETS[@]}"
mkdir -p .build-fuzz/logs
case "$command" in
    list) for t in "${TARGETS[@]}"; do printf '%-12s %s\n' "$t" "${ABOUT[$t]}"; done ;;
    build) for t in "$@"; do build_target "$t"; done ;;
    run)
        for t in "$@"; do build_target "$t"; done
        failed=()
        for t in "$@"; do run_target "$t" || failed+=("$t"); done
        [ ${#failed[@]} -eq 0 ] || die "findings in: ${failed[*]} (.build-fuzz/crashes/, .build-fuzz/logs/)"
        ;;
    merge) for t in "$@"; do build_target "$t"; merge_target "$t"; done ;;
    replay) for t in "$@"; do build_target "$t"; replay_target "$t"; done ;;
    speed) for t in "$@"; do speed_target "$t"; done ;;
    *) die "unknown command '$command': list, build, run, merge, replay or speed" ;;
esac
