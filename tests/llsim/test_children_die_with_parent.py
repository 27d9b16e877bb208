"""A sweep (or plan) killed with SIGKILL takes its running `llsim run` with it
(sim/study/child_runs.hpp, die_with_parent): no orphan run goes on writing into a directory that
the resumed sweep would run again; a stray LLSIM_PARENT_PID changes nothing. The waits below are
upper bounds, not timings."""
import os
import signal
import subprocess
import time

from harness import LLSIM, ROOT, check, finish, scratch_dir


def children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


sweep = subprocess.Popen([LLSIM, "sweep", "scenarios/lifecycle.yaml", "--seeds", "2", "--out", scratch_dir(),
                          "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 30
while not children(sweep.pid) and time.time() < deadline:
    time.sleep(0.05)
runs = children(sweep.pid)
check(len(runs) == 1, f"the sweep runs one llsim run at a time: {runs}")
with open(f"/proc/{runs[0]}/environ", "rb") as f:
    check(f"LLSIM_PARENT_PID={sweep.pid}".encode() in f.read().split(b"\0"), "the run knows its parent")
sweep.send_signal(signal.SIGKILL)
sweep.wait()
deadline = time.time() + 30
while running(runs[0]) and time.time() < deadline:
    time.sleep(0.05)
check(not running(runs[0]), "the run died with the sweep")

# The variable naming another process than the parent (exported by hand, carried into a batch
# job) or nothing is ignored: the run goes on as usual.
for value in ["1", "", "not a pid"]:
    out = scratch_dir()
    proc = subprocess.run([LLSIM, "run", "tests/inputs/transfer_bounds.yaml", "--out", out, "--quiet"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "LLSIM_PARENT_PID": value})
    check(proc.returncode == 0 and os.path.exists(os.path.join(out, "summary.json")),
          f"LLSIM_PARENT_PID={value!r}: a normal run: {proc.returncode}, {proc.stderr}")
finish()
