"""The deepest call paths under guard pages (LLSIM_STACK_GUARD=1: one protected page below each
actor's 128 KiB stack, so an overflow stops the run instead of corrupting the next stack): the
multi-level checkpointing train scenario at small scale with failures, unreliable master-worker
bags with checkpoints, and ingest with data writes. Each must run, and give the same results as
without guard pages."""
import json
import os
import subprocess

from harness import LLSIM, ROOT, check, finish, scratch_dir

CASES = [
    ("scenarios/paper/multilevel.yaml",
     ["platform.groups.compute.count=256", "phases.train.parallelism.data=4", "phases.train.model.params=25G",
      "phases.train.work=2d", "faults=[{group: compute, impl: exponential, mtbf: 300h}]"]),
    ("scenarios/paper/master_worker.yaml", ["phases.bag.tasks.count=1000"]),
    ("tests/inputs/tasks_unreliable.yaml", []),
    ("tests/inputs/ingest_mdtest.yaml", ["phases.md.workload.pattern=hard", "phases.md.workload.files_per_rank=50"]),
]


def run(scenario, sets, guard):
    out = scratch_dir()
    args = [LLSIM, "run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    env = dict(os.environ, LLSIM_STACK_GUARD="1" if guard else "0")
    proc = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env)
    check(proc.returncode == 0, f"{scenario} (guard pages {'on' if guard else 'off'}): exit {proc.returncode}\n"
                                f"{proc.stderr[-2000:]}")
    if proc.returncode != 0:
        return None
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    summary.pop("wall_time_s", None)
    return summary


for scenario, sets in CASES:
    guarded, plain = run(scenario, sets, True), run(scenario, sets, False)
    check(guarded is not None and guarded == plain, f"{scenario}: guard pages changed the results")
failures = run(*CASES[0], True)
check(failures is not None and failures["phases"]["train"]["failures"] > 0, "the small multilevel run has failures")

finish()
