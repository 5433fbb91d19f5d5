#!/usr/bin/env bash
# Which upstream libssh2 security fixes has docs/SECURITY.md not looked at yet?
#
#   upstream-fixes-check.sh UPSTREAM-GIT-DIR [SINCE-TAG]
#
# UPSTREAM-GIT-DIR: a clone of github.com/libssh2/libssh2 (a bare one is fine). Lists each commit touching src/ since
# SINCE-TAG (default libssh2-1.11.1, the release eSSH builds) whose message mentions overflow, underflow, OOB, bounds,
# validate/validation, CVE, GHSA, use-after-free, double free, leak or dangling, and whose abbreviated hash (first 8
# hex digits) docs/SECURITY.md does not name.
# Exit status: 0 when every such commit is named there, 1 when some are not (printed), 2 on a usage error.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DOC="${SECURITY_DOC:-$HERE/../../docs/SECURITY.md}"
git_dir="${1:-}"
since="${2:-libssh2-1.11.1}"
[ -n "$git_dir" ] || { echo "usage: $0 UPSTREAM-GIT-DIR [SINCE-TAG]" >&2; exit 2; }
git --git-dir="$git_dir" rev-parse -q --verify "$since^{commit}" >/dev/null 2>&1 \
    || git -C "$git_dir" rev-parse -q --verify "$since^{commit}" >/dev/null 2>&1 \
    || { echo "$git_dir has no $since (fetch upstream's tags)" >&2; exit 2; }

g() { if [ -d "$git_dir/.git" ]; then git -C "$git_dir" "$@"; else git --git-dir="$git_dir" "$@"; fi; }

named="$(grep -oE '\b[0-9a-f]{8}\b' "$DOC" | sort -u)"
total=0 missing=0
while read -r hash subject; do
    [ -n "$hash" ] || continue
    total=$((total + 1))
    if ! grep -qx "${hash:0:8}" <<<"$named"; then
        missing=$((missing + 1))
        printf '%s %s  (%s)\n' "${hash:0:8}" "$subject" "$(g log -1 --date=short --format=%ad "$hash")"
    fi
done < <(g log --format='%H %s' -i -E --grep='overflow|underflow|OOB|bounds|validat|CVE|GHSA|use-after-free|double.free|leak|dangling' "$since..HEAD" -- src)

echo "$total upstream src/ commits since $since mention overflow/OOB/bounds/validate/CVE/GHSA/UAF/double free/leak;" \
    "$missing not named in docs/SECURITY.md (upstream HEAD $(g log -1 --format='%h %ad' --date=short HEAD))"
[ "$missing" -eq 0 ]
