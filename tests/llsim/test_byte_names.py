"""Byte quantities have one suffix in code, as docs/developing.md says: a C++ name of a quantity
in bytes carries `_B` (hbm_B, kv_B_per_token, read_B), like `_s` for seconds and `_W` for watts;
constants (kMaxCsvLineBytes) spell the unit out, as their PascalCase has no suffix. Names
users read (YAML keys, metrics, CSV columns) say `bytes` and live in string literals, which the
checker skips, as it skips comments. The checker runs first on samples whose faults are known.
(The llsim binary, argv[1], is not used.)"""
import os
import re

from harness import ROOT, check, finish

# Names that contain "_bytes" without being a quantity in bytes: a formatter, a flag that a
# trace has a bytes column, and the method that turns on a service's stored_bytes column.
NOT_QUANTITIES = {"format_bytes", "has_bytes", "reports_stored_bytes", "reports_stored_bytes_"}
SKIPPED = re.compile(r'//[^\n]*|/\*.*?\*/|R"\((?:.|\n)*?\)"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
# A snake_case name with "bytes" as a word of it: weight_bytes, bytes_read, kv_bytes_per_token.
NAME = re.compile(r"\b(?:[a-z]\w*_)?bytes_\w+\b|\b[a-z]\w*_bytes\b")


def faults(files):
    """'path:line: name' for each byte quantity named with `_bytes` in `files` ({path: text})."""
    found = []
    for path, text in sorted(files.items()):
        code = SKIPPED.sub(lambda m: "\n" * m.group(0).count("\n"), text)
        for line_number, line in enumerate(code.split("\n"), 1):
            for name in NAME.findall(line):
                if name not in NOT_QUANTITIES:
                    found.append(f"{path}:{line_number}: {name} (a byte quantity ends in _B)")
    return found


sample = {"a.cpp": 'double weight_bytes = 0;  // weight_bytes in a comment\nput("stored_bytes", x);\n',
          "b.hpp": "/* kv_bytes\n */ double kv_B_per_token, kv_bytes_per_token;\nformat_bytes(x);\n",
          "c.cpp": "t.bytes_read += bytes; double read_B = 0; kMaxLineBytes;\n"}
got = faults(sample)
check(got == ["a.cpp:1: weight_bytes (a byte quantity ends in _B)",
              "b.hpp:2: kv_bytes_per_token (a byte quantity ends in _B)",
              "c.cpp:1: bytes_read (a byte quantity ends in _B)"], f"the checker finds the samples' faults: {got}")

files = {}
for top in ("sim", "models", "tests/unit", "tests/fuzz"):
    for folder, _, names in os.walk(os.path.join(ROOT, top)):
        for name in names:
            if name.endswith((".cpp", ".hpp")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, ROOT)] = f.read()
with_B = sum(len(re.findall(r"\b\w+_B\b", t)) for t in files.values())
print(f"{len(files)} files, {with_B} uses of names ending in _B")
check(len(files) > 300 and with_B > 500, "the sources were found")
for fault in faults(files):
    check(False, fault)
finish()
