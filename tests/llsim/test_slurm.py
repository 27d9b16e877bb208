"""llsim sweep --slurm: the job array and collector scripts (run here by bash as Slurm would run
them), the options' errors, --collect, and, when a Slurm cluster answers (CI starts one with
tests/slurm/start_local_slurm.sh and sets LLSIM_REQUIRE_SLURM=1), a real sweep through sbatch
and squeue that writes the same results.csv as the local sweep."""
import os
import shutil
import subprocess
import time

from harness import ROOT, check, finish, run, scratch_dir, slurm_answers, stand_in_commands

SCENARIO = "tests/inputs/serve_single.yaml"
SWEEP = ["--set", "phases.chat.workload.requests=20",
         "--set", "phases.chat.workload.arrival={dist: exponential, mean: 0.3s}",
         "--grid", "phases.chat.workload.output_tokens=10,30", "--seeds", "2", "--quiet"]


def read(path):
    with open(path, "rb") as f:
        return f.read()


local = scratch_dir()
run("sweep", SCENARIO, "--out", local, *SWEEP)
expected = read(os.path.join(local, "results.csv"))

# --no-submit writes the scripts and runs nothing.
scripts = scratch_dir()
_, out, _ = run("sweep", SCENARIO, "--out", scripts, *SWEEP, "--slurm", "--no-submit", "--partition", "debug",
                "--time", "0-00:10:00")
array = open(os.path.join(scripts, "slurm", "array.sh")).read()
tasks = open(os.path.join(scripts, "slurm", "tasks.txt")).read().splitlines()
check("#SBATCH --array=0-3" in array and "#SBATCH --partition=debug" in array and "#SBATCH --time=0-00:10:00" in array,
      f"array.sh directives: {array}")
check(len(tasks) == 4 and all(" run " in t and " --seed " in t for t in tasks), f"one llsim run per task: {tasks}")
check(not os.path.exists(os.path.join(scripts, "results.csv")), "nothing run")
check("submit with: jobid=$(sbatch --parsable" in out, f"says how to submit: {out}")

# --collect before the tasks ran: exit 1, naming the missing runs.
_, _, err = run("sweep", SCENARIO, "--out", scripts, *SWEEP, "--collect", expect=1)
check("4 of 4 runs have no results: p0_s1 p0_s2 p1_s1 p1_s2" in err, f"collect names the missing runs: {err}")

# --collect where no sweep was made: an error that creates nothing.
nowhere = os.path.join(scratch_dir(), "none")
_, _, err = run("sweep", SCENARIO, "--out", nowhere, *SWEEP, "--collect", expect=2)
check("holds no sweep to collect" in err and not os.path.exists(nowhere), f"--collect on no sweep: {err}")

# The scripts as Slurm runs them: each array task, then the collector, give the local results.
for k in range(4):
    proc = subprocess.run(["bash", os.path.join(scripts, "slurm", "array.sh")], cwd="/",
                          env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(k)), capture_output=True, text=True)
    check(proc.returncode == 0, f"task {k}: {proc.stderr}")
proc = subprocess.run(["bash", os.path.join(scripts, "slurm", "collect.sh")], cwd="/", capture_output=True, text=True)
check(proc.returncode == 0, f"collector: {proc.stderr}")
check(read(os.path.join(scripts, "results.csv")) == expected, "array tasks + collector: the local sweep's results.csv")
check("--collect" not in open(os.path.join(scripts, "report.md")).read(), "report's command is the local sweep")

# A later --slurm only submits what is missing; with nothing missing it writes the tables itself.
shutil.rmtree(os.path.join(scripts, "runs", "p1_s2"))
run("sweep", SCENARIO, "--out", scripts, *SWEEP, "--slurm", "--no-submit")
check(len(open(os.path.join(scripts, "slurm", "tasks.txt")).read().splitlines()) == 1, "one task for the one missing run")

for args, text in [(["--partition", "debug"], "go with --slurm"),
                   (["--slurm", "--time", "ten minutes"], "--time expects a Slurm time limit"),
                   (["--slurm", "--collect"], "does not go with --slurm")]:
    bad = os.path.join(scratch_dir(), "o")
    _, _, err = run("sweep", SCENARIO, "--out", bad, *SWEEP, *args, expect=2)
    check(text in err and not os.path.exists(bad), f"{args}: {err.strip()}")


# Submission through stand-in sbatch, squeue and scancel commands (first on PATH), for what a
# real cluster rarely does: notes printed around the job id, a refused array, a refused collector.
fake, calls, real_path = stand_in_commands([("sbatch", """for a in "$@"; do [ "$a" = --test-only ] && exit 0; done
echo "sbatch $*" >> CALLS
echo "sbatch: INFO: job_submit: default account 'proj' used" >&2
case "$*" in
  *array.sh*) [ -e FAKE/refuse_array ] && { echo "sbatch: error: QOSMaxSubmitJobPerUserLimit" >&2; exit 1; }
              echo 41 ;;
  *) [ -e FAKE/refuse_collector ] && { echo "sbatch: error: invalid dependency" >&2; exit 1; }
     echo "42;cluster" ;;
esac"""), ("squeue", "exit 0"), ("scancel", 'echo "scancel $*" >> CALLS')])
submitted = scratch_dir()
_, out, _ = run("sweep", SCENARIO, "--out", submitted, *SWEEP, "--slurm")
check(open(os.path.join(submitted, "slurm", "jobs.txt")).read() == "array 41\ncollector 42\n",
      f"the job ids are read among sbatch's notes: {out}")
for refusal, code, text in [("refuse_array", 1, "QOSMaxSubmitJobPerUserLimit"),
                            ("refuse_collector", 1, "the job array 41 it was to collect was cancelled")]:
    open(os.path.join(fake, refusal), "w").close()
    parent = os.path.join(scratch_dir(), "new")
    _, _, err = run("sweep", SCENARIO, "--out", os.path.join(parent, "sweep"), *SWEEP, "--slurm", expect=code)
    check(text in err and not os.path.exists(parent), f"{refusal}: nothing left behind: {err.strip()}")
    os.remove(os.path.join(fake, refusal))
check("scancel 41" in open(calls).read(), "the array of a refused collector is cancelled")
os.environ["PATH"] = real_path


if slurm_answers():
    # A partition the cluster does not have: refused before anything is written or submitted.
    refused = os.path.join(scratch_dir(), "o")
    _, _, err = run("sweep", SCENARIO, "--out", refused, *SWEEP, "--slurm", "--partition", "nosuch", expect=2)
    check("Slurm refuses the sweep's jobs" in err and "nosuch" in err and not os.path.exists(refused),
          f"unknown partition: {err.strip()}")
    cluster = scratch_dir()
    _, out, _ = run("sweep", SCENARIO, "--out", cluster, *SWEEP, "--slurm", "--time", "10")
    jobs = dict(line.split() for line in open(os.path.join(cluster, "slurm", "jobs.txt")))
    check("submitted job array" in out and set(jobs) == {"array", "collector"}, f"submitted: {out}")
    deadline = time.time() + 600
    while time.time() < deadline:
        queue = subprocess.run(["squeue", "-h", "-j", f"{jobs['array']},{jobs['collector']}"], capture_output=True,
                               text=True).stdout
        if not queue.strip():
            break
        time.sleep(1)
    check(not queue.strip(), f"the jobs ended within 10 minutes: {queue}")
    results = os.path.join(cluster, "results.csv")
    check(os.path.exists(results) and read(results) == expected,
          f"Slurm wrote the local sweep's results.csv; collector log: "
          f"{open(os.path.join(cluster, 'slurm', 'collect.log')).read() if os.path.exists(os.path.join(cluster, 'slurm', 'collect.log')) else 'none'}")
else:
    check(os.environ.get("LLSIM_REQUIRE_SLURM") != "1", "LLSIM_REQUIRE_SLURM=1 but no Slurm cluster answers sinfo")
    print("no Slurm cluster answers sinfo: the real-cluster part is skipped")
finish()
