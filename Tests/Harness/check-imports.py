#!/usr/bin/env python3
"""The dependency rule, checked: every Swift file imports only modules its target declares in Package.swift.

    swift package dump-package | Tests/Harness/check-imports.py

SwiftPM lets a target import any module that happens to be built before it (a dependency's dependency), so
"only SSH imports libssh2, only TerminalCurses imports ncurses, parsers and stores know nothing of the UI" would
hold by habit only. SwiftPM's own --explicit-target-dependency-import-check did not catch a transitive import in
a test with Swift 6.3 (see docs/DECISIONS.md), so this reads the package description and the sources instead.
Imports of modules that are not the package's (Foundation, Glibc, Dispatch, Synchronization, Testing) are free;
an import of one of the package's targets or of a declared product must be a direct dependency. Prints one line
per violation (file:line) and exits 1, or prints a one-line summary and exits 0.
"""
import json
import os
import re
import sys

IMPORT = re.compile(r'^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?'
                    r'([A-Za-z_][A-Za-z0-9_]*)')


def main() -> int:
    package = json.load(sys.stdin)
    targets = package["targets"]
    local = {t["name"] for t in targets}
    products = set()
    for t in targets:
        for dep in t["dependencies"]:
            if "product" in dep:
                products.add(dep["product"][0])
    guarded = local | products

    problems = []
    files = 0
    for t in targets:
        if t["type"] == "system":
            continue
        declared = set()
        for dep in t["dependencies"]:
            kind, value = next(iter(dep.items()))
            declared.add(value[0])
        path = t.get("path") or ("Tests/" if t["type"] == "test" else "Sources/") + t["name"]
        excluded = [os.path.join(path, e) for e in t.get("exclude", [])]
        for folder, _, names in os.walk(path):
            if any(folder == e or folder.startswith(e + os.sep) for e in excluded):
                continue
            for name in sorted(names):
                if not name.endswith(".swift"):
                    continue
                files += 1
                file = os.path.join(folder, name)
                with open(file, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = IMPORT.match(line)
                        if not m:
                            continue
                        module = m.group(1)
                        if module in guarded and module != t["name"] and module not in declared:
                            problems.append(f"{file}:{number}: target {t['name']} imports {module}, which it does "
                                            f"not declare in Package.swift (declare it, or move the code)")
    for p in problems:
        print(p)
    if problems:
        print(f"check-imports: {len(problems)} import(s) break the dependency rule", file=sys.stderr)
        return 1
    print(f"check-imports: {files} files in {len(targets)} targets import only what they declare")
    return 0


if __name__ == "__main__":
    sys.exit(main())
