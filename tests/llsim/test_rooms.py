"""The map of rooms in docs/design.md ("Rooms") against the code: every folder of sim/ is a row,
every include of a room's files that names a file of sim/ or models/ (in quotes or angle brackets)
names the room itself or a room its row allows, a row
allows only rooms listed below it (so no room includes one above it), and no room holds more than
25 units (a header with its .cpp, or either alone). The checker runs first on a small made-up map
and tree whose faults are known. (The llsim binary, argv[1], is not used.)"""
import os
import re

from harness import ROOT, check, finish

MAX_UNITS = 25
ROOM_CELL = re.compile(r"^`((?:sim/[a-z_/]+)|models)`$")


def read_map(text):
    """[(room, [allowed rooms])] in the order of the Rooms table, top first."""
    section = text.split("## Rooms", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            continue
        m = ROOM_CELL.match(cells[0])
        if m:
            rows.append((m.group(1), re.findall(r"`([^`]+)`", cells[2])))
    return rows


def room_of(path):
    """The room a source file lies in: its folder under sim/, or models."""
    return "models" if path.startswith("models/") else os.path.dirname(path)


def faults(rows, files, folders):
    """What is wrong with a map `rows` against `files` ({path: text}) and the `folders` of sim/."""
    found = []
    order = {room: i for i, (room, _) in enumerate(rows)}
    allowed = dict(rows)
    for room, names in rows:
        for name in names:
            if name not in order:
                found.append(f"{room} may include {name}, which is not a room of the map")
            elif order[name] <= order[room]:
                found.append(f"{room} may include {name}, which is not below it")
    for folder in folders:
        if folder not in order:
            found.append(f"{folder} is not in the map")
    for room in order:
        if room != "models" and room not in folders:
            found.append(f"{room} is in the map but holds no code")
    units = {}
    for path, text in sorted(files.items()):
        room = room_of(path)
        units.setdefault(room, set()).add(os.path.splitext(os.path.basename(path))[0])
        for target in re.findall(r'^\s*#\s*include\s+["<]((?:sim|models)/[^">]+)[">]', text, re.M):
            to = room_of(target)
            if to != room and room in allowed and to not in allowed[room]:
                found.append(f"{path} includes {target}: {room} may not include {to}")
    for room, stems in sorted(units.items()):
        if room != "models" and len(stems) > MAX_UNITS:
            found.append(f"{room} holds {len(stems)} units; at most {MAX_UNITS}: give it sub-rooms by job")
    return found


# The checker on a made-up map and tree with one fault of each kind.
SAMPLE_MAP = """## Rooms

| room | what it owns | may include |
|---|---|---|
| `sim/top` | the top | `sim/low`, `sim/ghost` |
| `sim/low` | below | `sim/top` |
| `sim/empty` | nothing | |

## Next
"""
sample_rows = read_map(SAMPLE_MAP)
check(sample_rows == [("sim/top", ["sim/low", "sim/ghost"]), ("sim/low", ["sim/top"]), ("sim/empty", [])],
      f"the map reader reads the sample's rows: {sample_rows}")
sample_files = {"sim/top/a.cpp": '#include "sim/low/b.hpp"\n#include "sim/top/a.hpp"\n',
                "sim/low/b.cpp": '#include "sim/top/a.hpp"\n',
                "sim/low/c.cpp": '#include "sim/new/d.hpp"\n  #  include <models/x/y.hpp>\n',
                "sim/new/d.hpp": ""}
sample_files.update({f"sim/low/u{i}.hpp": "" for i in range(MAX_UNITS)})
got = faults(sample_rows, sample_files, ["sim/top", "sim/low", "sim/new"])
expected = ["sim/top may include sim/ghost, which is not a room of the map",
            "sim/low may include sim/top, which is not below it",
            "sim/new is not in the map",
            "sim/empty is in the map but holds no code",
            "sim/low/c.cpp includes sim/new/d.hpp: sim/low may not include sim/new",
            "sim/low/c.cpp includes models/x/y.hpp: sim/low may not include models",
            f"sim/low holds {MAX_UNITS + 2} units; at most {MAX_UNITS}: give it sub-rooms by job"]
check(got == expected, f"the checker finds the sample's faults: {got}")

with open(os.path.join(ROOT, "docs", "design.md"), encoding="utf-8") as f:
    rows = read_map(f.read())
files, folders = {}, []
for top in ("sim", "models"):
    for folder, _, names in os.walk(os.path.join(ROOT, top)):
        rel_folder = os.path.relpath(folder, ROOT)
        sources = sorted(n for n in names if n.endswith((".cpp", ".hpp")))
        if top == "sim" and sources:
            folders.append(rel_folder)
        for name in sources:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                files[os.path.join(rel_folder, name)] = f.read()
print(f"{len(rows)} rooms in docs/design.md, {len(files)} files in sim/ and models/")
check(len(rows) >= 20 and len(files) > 400, "the map and the code were found")
for fault in faults(rows, files, folders):
    check(False, fault)
finish()
