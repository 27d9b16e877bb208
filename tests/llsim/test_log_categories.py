"""Log categories are named by the rule sim/sg/log.hpp documents: a file of sim/ declares
llsim_<room>_<file> under the parent llsim_<room> (its room: the first folder under sim/, so
sim/serve/engine/batcher.cpp is llsim_serve_batcher); a model file, models/<family>/<file>.cpp,
declares llsim_<family>_<file> under one of the parents; every parent that log.cpp declares is
used. The checker runs first on samples whose faults are known. (The llsim binary, argv[1], is
not used.)"""
import os
import re

from harness import ROOT, check, finish

DECLARATION = re.compile(r"XBT_LOG_NEW_DEFAULT_SUBCATEGORY\(\s*(\w+)\s*,\s*(\w+)\s*,")
PARENT = re.compile(r"XBT_LOG_NEW_SUBCATEGORY\(\s*(\w+)\s*,\s*llsim\s*,")


def expected(path):
    """(the category's name, the parent it must have or None for any parent) for a source path."""
    parts = path.split("/")
    stem = os.path.splitext(parts[-1])[0]
    if parts[0] == "models":
        return f"llsim_{parts[1]}_{stem}", None
    return f"llsim_{parts[1]}_{stem}", f"llsim_{parts[1]}"


def faults(files, parents):
    """What breaks the rule in `files` ({path: text}), `parents` being the declared parents."""
    found, used = [], set()
    for path, text in sorted(files.items()):
        for name, parent in DECLARATION.findall(text):
            want, want_parent = expected(path)
            used.add(parent)
            if name != want:
                found.append(f"{path} declares {name}; by its file it is {want}")
            if parent not in parents:
                found.append(f"{path}: {name} is under {parent}, which is not a parent of sim/sg/log.cpp")
            elif want_parent is not None and parent != want_parent:
                found.append(f"{path}: {name} is under {parent}; by its room it is under {want_parent}")
    for parent in sorted(set(parents) - used):
        found.append(f"parent {parent} holds no category")
    return found


sample = {"sim/serve/engine/batcher.cpp": "XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_batcher, llsim_serve, \"x\");",
          "sim/train/env.cpp": "XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_train_environment, llsim_train, \"x\");",
          "sim/loads/transfer_phase.cpp": "XBT_LOG_NEW_DEFAULT_SUBCATEGORY(\n llsim_loads_transfer_phase, llsim_phase,",
          "models/serve_system/vllm.cpp": "XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_serve_system_vllm, llsim_serve, \"x\");",
          "models/fault_model/x.cpp": "XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_fault_model_x, llsim_nowhere, \"x\");"}
got = faults(sample, ["llsim_serve", "llsim_train", "llsim_loads", "llsim_phase", "llsim_ingest"])
check(got == ["models/fault_model/x.cpp: llsim_fault_model_x is under llsim_nowhere, which is not a parent of "
              "sim/sg/log.cpp",
              "sim/loads/transfer_phase.cpp: llsim_loads_transfer_phase is under llsim_phase; by its room it is under "
              "llsim_loads",
              "sim/train/env.cpp declares llsim_train_environment; by its file it is llsim_train_env",
              "parent llsim_ingest holds no category", "parent llsim_loads holds no category"], f"the checker finds the samples' faults: {got}")

with open(os.path.join(ROOT, "sim", "sg", "log.cpp"), encoding="utf-8") as f:
    parents = PARENT.findall(f.read())
files = {}
for top in ("sim", "models"):
    for folder, _, names in os.walk(os.path.join(ROOT, top)):
        for name in names:
            if name.endswith(".cpp"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    files[os.path.relpath(path, ROOT)] = f.read()
declared = sum(len(DECLARATION.findall(t)) for t in files.values())
print(f"{declared} categories under {len(parents)} parents")
check(declared >= 20 and len(parents) >= 8, "the categories and parents were found")
for fault in faults(files, parents):
    check(False, fault)
finish()
