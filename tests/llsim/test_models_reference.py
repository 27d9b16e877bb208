"""docs/models.md is the output of `llsim models --markdown`: the reference of every interface,
implementation, parameter, metric and preset cannot drift from the declarations. After changing a
declaration, regenerate it with `build/llsim models --markdown > docs/models.md`."""
import difflib
import os

from harness import ROOT, check, finish, run

_, generated, _ = run("models", "--markdown")
with open(os.path.join(ROOT, "docs", "models.md")) as f:
    committed = f.read()
diff = list(difflib.unified_diff(committed.splitlines(), generated.splitlines(), "docs/models.md",
                                 "llsim models --markdown", lineterm="", n=1))
check(not diff, "docs/models.md differs from llsim models --markdown (regenerate it):\n" + "\n".join(diff[:40]))

# The reference covers what it says it does: every family, a parameter table and the metrics.
for text in ["## Interface `task_scheduler`", "## Interface `phase`", "## Interface `service`",
             "| key | type | default | range | description |", "| metric | unit | description |",
             "contract: sim/mw/task_scheduler.hpp", "'impl:' one of: fcfs, locality, maxmin, mct, minmax, minmin"]:
    check(text in generated, f"llsim models --markdown lacks {text!r}")
finish()
