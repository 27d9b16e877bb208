"""llsim plan --slurm (docs/plan.md, "On Slurm"): each point's seeds as a job array the search waits
for. Through stand-in sbatch and squeue commands that run the array's tasks here as Slurm would:
the local plan's answer and points, the scripts' directives, a lost task stopping the plan and the
plan resuming, a plan refused while its array is queued, bad command lines. When a Slurm cluster
answers (CI starts one, LLSIM_REQUIRE_SLURM=1), a real plan through sbatch and squeue."""
import json
import os
import subprocess

from harness import check, finish, run, scratch_dir, slurm_answers, stand_in_commands

SCENARIO = "scenarios/plan/serve_instances.yaml"
PLAN = ["--axis", "platform.groups.gpu.count=1..32", "--target", "chat.slo_attainment>=0.95", "--seeds", "2",
        "--quiet"]


def read(path):
    with open(path) as f:
        return f.read()


def answer(out_dir):
    return json.loads(read(os.path.join(out_dir, "answer.json")))


local = scratch_dir()
run("plan", SCENARIO, *PLAN, "--out", local)
expected = answer(local)
check(expected["feasible"], f"the local plan finds an answer: {expected}")

fake, calls, real_path = stand_in_commands([("sbatch", """for a in "$@"; do [ "$a" = --test-only ] && exit 0; done
echo "sbatch $*" >> CALLS
script="${@: -1}"
if [ ! -e FAKE/lose_tasks ]; then
  last=$(sed -n 's/^#SBATCH --array=0-\\([0-9]*\\)$/\\1/p' "$script")
  log=$(sed -n 's/^#SBATCH --output=\\(.*\\)$/\\1/p' "$script")
  for k in $(seq 0 "$last"); do SLURM_ARRAY_TASK_ID=$k bash "$script" > "${log//%a/$k}" 2>&1 || true; done
fi
echo "sbatch: INFO: job_submit: default account 'proj' used" >&2
echo 41"""), ("squeue", "[ -e FAKE/queued ] && echo 41; exit 0")])

on_slurm = scratch_dir()
run("plan", SCENARIO, *PLAN, "--out", on_slurm, "--slurm", "--partition", "debug", "--time", "0-00:10:00")
got = answer(on_slurm)
check(got["point"] == expected["point"] and got["points_run"] == expected["points_run"],
      f"the Slurm plan's answer and points are the local plan's: {got['point']} / {expected['point']}")
check(read(os.path.join(on_slurm, "points.csv")) == read(os.path.join(local, "points.csv")),
      "points.csv is the local plan's")
arrays = [l for l in read(calls).splitlines() if "array.sh" in l]
check(len(arrays) == got["points_run"], f"one job array per point: {len(arrays)} for {got['points_run']} points")
point_dirs = sorted(d for d in os.listdir(os.path.join(on_slurm, "slurm")) if d.startswith("p"))
script = read(os.path.join(on_slurm, "slurm", point_dirs[0], "array.sh"))
check("#SBATCH --array=0-1" in script and "#SBATCH --partition=debug" in script and
      "#SBATCH --time=0-00:10:00" in script, f"a point's array: 2 seeds, the partition and time: {script}")
tasks = read(os.path.join(on_slurm, "slurm", point_dirs[0], "tasks.txt")).splitlines()
check(len(tasks) == 2 and all(" run " in t and " --seed " in t for t in tasks), f"one llsim run per seed: {tasks}")
check(read(os.path.join(on_slurm, "slurm", "jobs.txt")) == "array 41\n", "jobs.txt: the array's id")

# A task that leaves no results (a lost node, say) stops the plan, naming the run and its log;
# the same plan started again resumes from the runs that finished.
open(os.path.join(fake, "lose_tasks"), "w").close()
lost = scratch_dir()
_, _, err = run("plan", SCENARIO, *PLAN, "--out", lost, "--slurm", expect=1)
check("failed in Slurm job 41, task 0" in err and "no log" in err and "run the same plan again to resume" in err,
      f"a lost task stops the plan: {err.strip()[-600:]}")
os.remove(os.path.join(fake, "lose_tasks"))
_, out, _ = run("plan", SCENARIO, *PLAN, "--out", lost, "--slurm")
check(answer(lost)["point"] == expected["point"], f"resumed: {out}")

# While an earlier submission's array is queued, a plan into the same directory is refused.
open(os.path.join(fake, "queued"), "w").close()
_, _, err = run("plan", SCENARIO, *PLAN, "--out", on_slurm, "--slurm", expect=2)
check("jobs 41 of an earlier submission" in err and "still queued or running" in err, f"queued: {err.strip()}")
os.remove(os.path.join(fake, "queued"))
os.environ["PATH"] = real_path

for args, text in [(["--partition", "debug"], "--partition and --time go with --slurm"),
                   (["--slurm", "--jobs", "2"], "--jobs is for local runs"),
                   (["--slurm", "--time", "ten minutes"], "--time expects a Slurm time limit")]:
    bad = os.path.join(scratch_dir(), "o")
    _, _, err = run("plan", SCENARIO, *PLAN, "--out", bad, *args, expect=2)
    check(text in err and not os.path.exists(bad), f"{args}: {err.strip()}")
if subprocess.run(["bash", "-c", "command -v sbatch"], capture_output=True).returncode != 0:
    bad = os.path.join(scratch_dir(), "o")
    _, _, err = run("plan", SCENARIO, *PLAN, "--out", bad, "--slurm", expect=2)
    check("sbatch was not found on PATH" in err and not os.path.exists(bad), f"no sbatch: {err.strip()}")


if slurm_answers():
    cluster = scratch_dir()
    run("plan", SCENARIO, *PLAN, "--out", cluster, "--slurm", "--time", "10")
    check(answer(cluster)["point"] == expected["point"], f"Slurm's answer: {answer(cluster)['point']}")
    check(read(os.path.join(cluster, "points.csv")) == read(os.path.join(local, "points.csv")),
          "Slurm's points.csv is the local plan's")
else:
    check(os.environ.get("LLSIM_REQUIRE_SLURM") != "1", "LLSIM_REQUIRE_SLURM=1 but no Slurm cluster answers sinfo")
    print("no Slurm cluster answers sinfo: the real-cluster part is skipped")
finish()
