"""llsim sweep through the real binary: the grid's cross product and seeds, results.csv and
summary.csv (mean and 95% confidence interval checked against the rows), the same bytes with
--jobs 1 and 2, resuming (also after a kill), report.md, and bad command lines and failing points."""
import csv
import math
import os
import shutil
import signal
import subprocess
import time

from harness import LLSIM, ROOT, check, check_close, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_single.yaml"
# Twenty requests with Poisson arrivals: the metrics differ from seed to seed.
BASE = ["--set", "phases.chat.workload.requests=20",
        "--set", "phases.chat.workload.arrival={dist: exponential, mean: 0.3s}"]
GRID = ["--grid", "phases.chat.workload.output_tokens=10,30", "--grid", "platform.groups.gpu.gpu.count=4,8"]


def sweep(out, *extra):
    return run("sweep", SCENARIO, "--out", out, *BASE, *GRID, "--seeds", "3", *extra)


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


out1 = scratch_dir()
_, stdout, stderr = sweep(out1, "--jobs", "2")
res = rows(os.path.join(out1, "results.csv"))
check(len(res) == 2 * 2 * 3, f"{len(res)} rows for 4 points x 3 seeds")
check({(r["phases.chat.workload.output_tokens"], r["platform.groups.gpu.gpu.count"]) for r in res} ==
      {("10", "4"), ("10", "8"), ("30", "4"), ("30", "8")}, "the cross product of the two axes")
check(sorted({r["seed"] for r in res}) == ["1", "2", "3"], "seeds 1, 2, 3 (the scenario's seed and the next)")
check(len({r["chat.mean_ttft_s"] for r in res if r["point"] == "0"}) == 3, "the seeds give different results")
check("wall_time_s" not in res[0], "no wall-clock figure in results.csv")
check(stderr.count("seeds done") == 4, f"a progress line per point: {stderr!r}")
check("left" in stderr, "progress says the time left")

# summary.csv: mean and t-based 95% interval per point and metric, from the rows.
summ = rows(os.path.join(out1, "summary.csv"))
for p in ["0", "3"]:
    xs = [float(r["chat.mean_ttft_s"]) for r in res if r["point"] == p]
    mean = sum(xs) / 3
    half = 4.303 * math.sqrt(sum((x - mean) ** 2 for x in xs) / 2 / 3)
    s = [r for r in summ if r["point"] == p and r["metric"] == "chat.mean_ttft_s"][0]
    check(s["n"] == "3", "n = 3 seeds")
    check_close(float(s["mean"]), mean, 1e-12, f"point {p}: mean")
    check_close(float(s["ci95_high"]) - float(s["mean"]), half, 1e-9, f"point {p}: 95% half-width, t(2) = 4.303")

# The same sweep one run at a time writes the same bytes.
out2 = scratch_dir()
_, quiet_out, quiet_err = sweep(out2, "--jobs", "1", "--quiet")
# --quiet drops the progress lines only: the line naming the tables stays.
check(quiet_out == f"12 runs (4 points x 3 seeds): {out2}/results.csv, {out2}/summary.csv\n" and quiet_err == "",
      f"sweep --quiet: {quiet_out!r} {quiet_err!r}")
for name in ["results.csv", "summary.csv"]:
    with open(os.path.join(out1, name), "rb") as a, open(os.path.join(out2, name), "rb") as b:
        check(a.read() == b.read(), f"{name}: --jobs 2 and --jobs 1 write the same bytes")

# Resume: only the missing run runs again, and the results are the same.
shutil.rmtree(os.path.join(out2, "runs", "p2_s2"))
before = open(os.path.join(out2, "results.csv")).read()
_, _, resume_err = sweep(out2, "--jobs", "2")
# The time left is estimated from the runs made now, not from the kept ones.
check(resume_err.count("kept from an earlier run") == 3 and resume_err.count(" left") == 1,
      f"progress of a resumed sweep: {resume_err!r}")
walls = rows(os.path.join(out2, "wall_times.csv"))
check([w["resumed"] for w in walls].count("0") == 1, "one run ran again, the others were kept")
check(open(os.path.join(out2, "results.csv")).read() == before, "a resumed sweep writes the same results")

# report.md: the grid, the seeds, the command, and per point the metrics that differ between
# points as mean (95% CI); a capacity section added to it survives the sweep being run again.
report_path = os.path.join(out2, "report.md")
report = open(report_path).read()
check("- Seeds: 3 per point (1 to 3), 4 points" in report, f"report names the seeds: {report[:400]}")
check("- Grid `phases.chat.workload.output_tokens`: `10` `30`" in report, "report names the grid")
check("--grid phases.chat.workload.output_tokens=10,30" in report, "report gives the command")
ttft_row = [line for line in report.splitlines() if line.startswith("| `chat.mean_ttft_s` |")]
check(len(ttft_row) == 1 and ttft_row[0].count("(") == 4, f"one cell with a CI per point: {ttft_row}")
check("| `chat.requests` |" not in report, "a metric equal at every point is left to summary.csv")
# A service metric that differs between points is reported too.
pool_out = scratch_dir()
run("sweep", "tests/inputs/memory_pool.yaml", "--grid", "services.kv.capacity=5GB,10GB", "--out", pool_out, "--quiet")
pool_report = open(os.path.join(pool_out, "report.md")).read()
check("| `services.kv.stored_bytes` |" in pool_report and "| `services.kv.operations` |" not in pool_report,
      f"a sweep's report has the service metrics that differ between points: {pool_report}")
with open(report_path, "a") as f:
    f.write("\nsmallest answer: kept\n")
sweep(out2, "--quiet")
check(open(report_path).read().endswith("## Capacity\n\n`analysis/capacity.py DIR --x PATH --metric M --target "
                                        "\"<= V\"` writes the smallest swept value that meets a target here.\n"
                                        "\nsmallest answer: kept\n"), "the capacity section is kept")

# Killed in the middle (the sweep and its running child, as a Ctrl-C or a lost session would) and
# started again: only the runs without results run, and the tables are those of a sweep never
# interrupted.
KILL_ARGS = ["sweep", "scenarios/paper/young_daly.yaml", "--quiet", "--jobs", "1",
             "--grid", "phases.train.checkpoint.policy={impl: fixed, interval: 1h},{impl: fixed, interval: 2h},"
                       "{impl: fixed, interval: 3h},{impl: fixed, interval: 4h},{impl: daly},{impl: young}"]
whole, killed = scratch_dir(), scratch_dir()
run(*KILL_ARGS, "--out", whole)
proc = subprocess.Popen([LLSIM, *KILL_ARGS, "--out", killed], cwd=ROOT, start_new_session=True,
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.time() + 120
while not os.path.exists(os.path.join(killed, "runs", "p1_s1", "summary.json")) and time.time() < deadline:
    time.sleep(0.02)
os.killpg(proc.pid, signal.SIGKILL)
proc.wait()
done_before = sorted(d for d in os.listdir(os.path.join(killed, "runs"))
                     if os.path.exists(os.path.join(killed, "runs", d, "summary.json")))
check(2 <= len(done_before) < 6 and not os.path.exists(os.path.join(killed, "results.csv")),
      f"killed after {done_before}, before the tables")
run(*KILL_ARGS, "--out", killed)
resumed = rows(os.path.join(killed, "wall_times.csv"))
check([w["resumed"] for w in resumed].count("1") == len(done_before), "the finished runs were kept, the others ran")
check(open(os.path.join(killed, "results.csv")).read() == open(os.path.join(whole, "results.csv")).read(),
      "after the kill and restart, results.csv is that of the uninterrupted sweep")

# Killed right after each file the sweep itself writes (sweep.json, then after its runs
# results.csv, summary.csv, wall_times.csv, report.md; its runs write theirs whole): every run
# folder is whole or absent, every table present is the uninterrupted sweep's, and the same sweep
# started again completes with that sweep's tables.
SHORT_ARGS = KILL_ARGS[:-1] + ["phases.train.checkpoint.policy={impl: fixed, interval: 1h},{impl: daly}"]
short = scratch_dir()
run(*SHORT_ARGS, "--out", short)
TABLES = ["results.csv", "summary.csv", "report.md"]


def table(folder, name):
    """A sweep table, its --out (report.md's command line) written as OUT."""
    with open(os.path.join(folder, name)) as f:
        return f.read().replace(folder, "OUT")


for kill_after in range(1, 6):
    killed = scratch_dir()
    proc = subprocess.run([LLSIM, *SHORT_ARGS, "--out", killed], cwd=ROOT, capture_output=True,
                          env=dict(os.environ, LLSIM_KILL_AFTER_WRITES=str(kill_after)))
    check(proc.returncode == -signal.SIGKILL, f"killed after its write {kill_after}: exit {proc.returncode}")
    folders = [d for d in os.listdir(os.path.join(killed, "runs")) if not d.startswith(".")]
    check(all(os.path.exists(os.path.join(killed, "runs", d, "summary.json")) for d in folders),
          f"killed after write {kill_after}: every run folder is whole: {folders}")
    check(len(folders) == (0 if kill_after == 1 else 2), f"killed after write {kill_after}: {len(folders)} runs")
    for name in TABLES:
        check(not os.path.exists(os.path.join(killed, name)) or table(killed, name) == table(short, name),
              f"killed after write {kill_after}: {name} absent or the whole sweep's")
    run(*SHORT_ARGS, "--out", killed)
    for name in TABLES:
        check(table(killed, name) == table(short, name),
              f"killed after write {kill_after}, then run again: {name} is the whole sweep's")

# A directory keeps one sweep: another grid into it is refused before anything runs.
_, _, err = run("sweep", SCENARIO, "--out", out2, *BASE, "--grid", "phases.chat.workload.output_tokens=10,20", "--quiet",
                expect=2)
check("holds the runs of another sweep" in err, f"another sweep in the same directory: {err.strip()}")
check(open(os.path.join(out2, "results.csv")).read() == before, "the refused sweep wrote nothing")

# A run made from another text of the scenario (the file edited while the sweep ran, or while
# its Slurm jobs waited) is refused by name instead of mixed into the tables.
summary_path = os.path.join(out2, "runs", "p1_s2", "summary.json")
with open(summary_path) as f:
    text = f.read()
with open(summary_path, "w") as f:
    f.write(text.replace('"scenario_fnv1a": "', '"scenario_fnv1a": "0'))
_, _, err = run("sweep", SCENARIO, "--out", out2, *BASE, *GRID, "--seeds", "3", "--quiet", expect=1)
check("p1_s2 was run on another text of" in err, f"a run of an edited scenario: {err.strip()}")
with open(summary_path, "w") as f:
    f.write(text)
with open(os.path.join(out2, "runs", "p0_s1", "summary.json"), "w") as f:
    f.write('{"bad')
_, _, err = run("sweep", SCENARIO, "--out", out2, *BASE, *GRID, "--seeds", "3", "--quiet", expect=1)
check("p0_s1/summary.json: not an llsim summary.json" in err, f"a corrupt kept run is named: {err.strip()}")

# --set applies to every point.
shifted = scratch_dir()
run("sweep", SCENARIO, "--out", shifted, "--quiet", *BASE, *GRID, "--set", "phases.chat.workload.input_tokens=6000")
later = rows(os.path.join(shifted, "results.csv"))
seed1 = [r for r in res if r["seed"] == "1"]
check(len(later) == 4 and all(float(a["chat.mean_ttft_s"]) > float(b["chat.mean_ttft_s"]) for a, b in zip(later, seed1)),
      "--set longer prompts: every point's TTFT grows")

# Without --grid the scenario is the single point.
single = scratch_dir()
run("sweep", SCENARIO, "--out", single, "--quiet")
check(len(rows(os.path.join(single, "results.csv"))) == 1, "no grid: one point, one seed")

# Bad command lines and points: exit 2 before anything runs; a failing run: exit 1, others kept.
for args, text in [(["--grid", "nokey"], "--grid expects PATH=v1,v2"),
                   (["--grid", "seed=1,", ], "an empty value"),
                   (["--grid", "phases.chat.slo.ttft=1s", "--grid", "phases.chat.slo.ttft=2s"], "given twice"),
                   (["--grid", "seed=1,2"], "the seed is not a grid axis"),
                   (["--grid", "phases.chat.slo.ttft=1s,1s"], "the value '1s' is given twice"),
                   (["--grid", "phases.chat.slo.ttft=1s,2s", "--set", "phases.chat.slo.ttft=3s"],
                    "sets a path the grid sweeps"),
                   (["--seeds", "0"], "--seeds expects a whole number"),
                   (["--jobs", "x"], "--jobs expects a whole number")]:
    bad = os.path.join(scratch_dir(), "o")
    _, _, err = run("sweep", SCENARIO, "--out", bad, *args, expect=2)
    check(text in err, f"{args}: {err.strip()}")
    check(not os.path.exists(bad), f"{args}: nothing written")
bad = os.path.join(scratch_dir(), "o")
_, _, err = run("sweep", SCENARIO, "--out", bad, "--grid", "phases.chat.batching.block_size=16,-3", expect=2)
check("block_size" in err and not os.path.exists(bad), f"a bad point is found before any run: {err.strip()}")
check("--grid phases.chat.batching.block_size=-3: " in err and "--set" not in err,
      f"the bad point is told as the --grid's value it is: {err.strip()}")
fail = os.path.join(scratch_dir(), "o")
_, _, err = run("sweep", "scenarios/demo.yaml", "--out", fail, "--grid", "platform.groups.storage.disks.capacity=100TB,1GB",
                expect=1)
check("p1_s1 failed (exit 1)" in err and "is full" in err, f"the failing run and its message: {err.strip()[:300]}")
check(os.path.exists(os.path.join(fail, "runs", "p0_s1", "summary.json")), "the finished run is kept")

finish()
