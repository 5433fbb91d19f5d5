#!/usr/bin/env bash
# The output rule (README, issue 13 §4): no `try!` in Sources, and no FileHandle write on the standard streams or
# files — FileHandle's write stops the program with a fatal error when the reader went away or the disk is full.
# Every command writes through CLI's TerminalOutput (EPIPE: quiet exit 141); files through LocalProcess.writeAll.
set -euo pipefail
cd "$(dirname "$0")/../.."
found=$(grep -rnE 'try!|\.write\(Data\(|FileHandle\.standard(Output|Error)\.write|\bprint\(' Sources --include=*.swift \
    | grep -vE '^Sources/TUIKitDemo/' | grep -vE '^\S+:\s*//' \
    | grep -vE 'ErrorLine\.print\(|func print\(' || true)
if [ -n "$found" ]; then
    echo "check-io: these lines write past the one output path (use TerminalOutput / writeAll, never try!):" >&2
    echo "$found" >&2
    exit 1
fi
echo "check-io: no try!, no FileHandle writes, no print( in Sources"
