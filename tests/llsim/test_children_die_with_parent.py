"""A sweep (or plan) killed with SIGKILL takes its running `llsim run` with it
(sim/study/child_runs.hpp): no orphan run goes on writing into a directory that the resumed sweep
would run again. The kill falls at two moments: as soon as the child process exists (before its
program has started: the case a sanitizer build's slow start once let through), and a second
later, mid-run. The waits below are upper bounds, not timings."""
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


for delay_s in [0, 1]:
    sweep = subprocess.Popen([LLSIM, "sweep", "scenarios/lifecycle.yaml", "--seeds", "2", "--out", scratch_dir(),
                              "--quiet"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while not children(sweep.pid) and time.time() < deadline:
        time.sleep(0.001)
    runs = children(sweep.pid)
    check(len(runs) == 1, f"the sweep runs one llsim run at a time: {runs}")
    time.sleep(delay_s)
    sweep.send_signal(signal.SIGKILL)
    sweep.wait()
    deadline = time.time() + 30
    while runs and running(runs[0]) and time.time() < deadline:
        time.sleep(0.05)
    check(runs and not running(runs[0]), f"killed {delay_s} s after its run started: the run died with the sweep")
finish()
