"""A run's folder is one run (sim/run/run_folder.hpp). A run into a folder that holds an earlier
run replaces it whole: no file of the earlier run stays beside the new ones. llsim killed as
`kill -9` would (LLSIM_KILL_AFTER_WRITES=n: right after its n-th file is in place, before and
after the run is published) or during its simulation leaves the previous run whole, or the new
one whole, never a mix; and the next run into that folder succeeds and removes what the killed
one left beside it. A folder that holds other files is refused."""
import os
import subprocess
import time

from harness import LLSIM, ROOT, check, finish, run, scratch_dir, summary

FIRST = ["tests/inputs/autoscale.yaml", "--seed", "1"]        # writes chat_scaling.csv and service_pfs.csv
SECOND = ["tests/inputs/serve_single.yaml", "--seed", "2"]    # writes neither


def llsim(args, out, kill_after=None, plot=False):
    env = dict(os.environ)
    if kill_after is not None:
        env["LLSIM_KILL_AFTER_WRITES"] = str(kill_after)
    extra = ["--plot"] if plot else []
    return subprocess.run([LLSIM, "run", *args, "--quiet", "--out", out, *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True).returncode


def files(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def leftovers(folder):
    parent, name = os.path.split(folder)
    return [f for f in os.listdir(parent) if f.startswith("." + name + ".llsim-")]


def seed_of(folder):
    return summary(folder)["seed"]


parent = scratch_dir()
out = os.path.join(parent, "run")
check(llsim(FIRST, out) == 0, "the first run")
first_files = files(out)
check("chat_scaling.csv" in first_files and "service_pfs.csv" in first_files, f"the first run's files: {first_files}")
second = os.path.join(scratch_dir(), "run")
check(llsim(SECOND, second) == 0, "the second run, alone")
second_files = files(second)
check("chat_scaling.csv" not in second_files and len(second_files) >= 5, f"the second run's files: {second_files}")

# Replaced whole: the first run's own files are gone.
check(llsim(SECOND, out) == 0 and files(out) == second_files and seed_of(out) == 2,
      f"a run into an earlier run's folder holds only its own files: {files(out)}")
check(llsim(FIRST, out) == 0 and files(out) == first_files and seed_of(out) == 1, "and back")

# Killed after each of its files is in place: the first run stays whole; then the second run
# publishes and a kill while it plots leaves it whole.
for n in range(1, len(second_files) + 1):
    code = llsim(SECOND, out, kill_after=n)
    check(code == -9, f"killed after file {n}: exit {code}")
    check(files(out) == first_files and seed_of(out) == 1,
          f"killed after file {n} of {len(second_files)}: the previous run is whole: {files(out)}")
check(len(leftovers(out)) >= 1, "a killed run leaves its staging folder beside the run")
code = llsim(SECOND, out, kill_after=len(second_files) + 1, plot=True)
check(code == -9 and seed_of(out) == 2 and set(second_files) <= set(files(out)) and
      "chat_scaling.csv" not in files(out), f"killed while plotting: the new run is whole: {code} {files(out)}")

# Killed while it simulates: the folder is untouched.
check(llsim(FIRST, out) == 0 and leftovers(out) == [], "the next run succeeds and removes what killed runs left")
LONG = ["scenarios/bench/transfer_100k.yaml"]
proc = subprocess.Popen([LLSIM, "run", *LONG, "--quiet", "--out", out], cwd=ROOT, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL)
time.sleep(1.0)
proc.kill()
proc.wait()
check(files(out) == first_files and seed_of(out) == 1, "killed while simulating: the previous run is whole")

# A first run killed before it publishes leaves no folder.
fresh = os.path.join(scratch_dir(), "run")
check(llsim(SECOND, fresh, kill_after=2) == -9 and not os.path.exists(fresh), "a killed first run leaves no folder")

# A folder of other files is not replaced.
other = scratch_dir()
with open(os.path.join(other, "notes.txt"), "w") as f:
    f.write("mine\n")
_, _, err = run("run", *SECOND, "--quiet", "--out", other, expect=2)
check("holds files but no summary.json" in err and files(other) == ["notes.txt"], f"a folder of other files: {err}")
_, _, err = run("run", *SECOND, "--quiet", "--out", ".", expect=2)
check("name a folder of its own" in err, f"--out .: {err}")

# A link to a folder: the run goes where it points, and the link stays a link.
target = os.path.join(scratch_dir(), "runs")
check(llsim(FIRST, target) == 0, "a run into the link's target")
link = os.path.join(scratch_dir(), "latest")
os.symlink(target, link)
check(llsim(SECOND, link) == 0 and os.path.islink(link) and seed_of(target) == 2 and files(target) == second_files,
      f"--out through a link replaces the run where it points: {files(target)}")

# A run's folder has the permissions mkdir gives (the umask's), as before runs were staged.
mask = os.umask(0)
os.umask(mask)
check(os.stat(target).st_mode & 0o777 == 0o777 & ~mask, f"a run's folder is {oct(os.stat(target).st_mode & 0o777)}")

# A run that fails in its simulation (exit 1) leaves nothing beside the folder.
failing = os.path.join(scratch_dir(), "run")
code = subprocess.run([LLSIM, "run", "tests/inputs/tasks_unreliable.yaml", "--quiet", "--out", failing, "--set",
                       "faults=[{group: workers, impl: exponential, mtbf: 100ns, downtime: 0s}]"], cwd=ROOT,
                      capture_output=True).returncode
check(code == 1 and not os.path.exists(failing) and leftovers(failing) == [], f"a failed run leaves nothing: {code}")

# Two runs into one folder at once: neither removes the other's staging folder; the one that
# publishes last is the folder, whole.
together = os.path.join(scratch_dir(), "run")
procs = [subprocess.Popen([LLSIM, "run", *args, "--quiet", "--out", together], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL) for args in (FIRST, SECOND)]
codes = [p.wait() for p in procs]
check(codes == [0, 0] and files(together) in (first_files, second_files) and leftovers(together) == [],
      f"two runs at once both succeed, one whole run stays: {codes} {files(together)}")
finish()
