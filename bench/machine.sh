#!/usr/bin/env bash
# Prints the "machine and versions" block every bench result starts with.
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- machine: $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "- kernel: $(uname -r); $(. /etc/os-release; echo "$PRETTY_NAME")"
echo "- essh: $("$ESSH" --version 2>/dev/null)"
echo "- swift: $(swift --version 2>/dev/null | head -1)"
