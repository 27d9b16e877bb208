"""Every scenario shipped in scenarios/ loads and validates, and the small ones run."""
import glob
import os

from harness import ROOT, check, finish, run, scratch_dir, summary

shipped = sorted(glob.glob(os.path.join(ROOT, "scenarios", "**", "*.yaml"), recursive=True))
check(len(shipped) >= 4, f"only {len(shipped)} shipped scenarios")
for path in shipped:
    rel = os.path.relpath(path, ROOT)
    _, out, _ = run("validate", rel)
    check("valid" in out, f"{rel} does not validate")

# The paper master-worker scenario at its default size runs and completes every task.
out = scratch_dir()
run("run", "scenarios/paper/master_worker.yaml", "--quiet", "--out", out)
bag = summary(out)["phases"]["bag"]
check(bag["completed"] == bag["tasks"] == 5000, f"master_worker: {bag['completed']} of {bag['tasks']} tasks")
check(0 < bag["worker_utilization"] <= 1, f"master_worker: utilization {bag['worker_utilization']}")

finish()
