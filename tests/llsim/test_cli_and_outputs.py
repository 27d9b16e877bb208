"""The command line and the run directory: help, version, models, validate, the default output
directory, determinism (same seed, byte-identical summary.json but wall_time_s), a resolved.yaml
that reruns to the same result, a failure during simulation (exit 1, nothing written), plots."""
import json
import os
import re
import shutil
import subprocess

from harness import LLSIM, ROOT, check, check_close, finish, run, scratch_dir, summary

# Help and version.
_, out, _ = run("--help")
check("usage: llsim run" in out, "--help shows the usage")
for command in ["run", "validate", "models"]:
    _, out, _ = run(command, "--help")
    check(f"llsim {command}" in out, f"{command} --help")
_, out, _ = run("--version")
check(re.match(r"llsim \d+\.\d+\.\d+", out) is not None, f"--version: {out}")

# models lists interfaces, implementations and parameters with type, default, description.
_, out, _ = run("models")
check("Interface 'phase':\n  choose with 'kind:'; contract: sim/phase/phase.hpp\n" in out
      and "    sim/train/train_phase.cpp\n" in out and "    sim/loads/transfer_phase.cpp\n" in out,
      "models lists the phase kinds with their header, each beside its runtime")
check(re.search(r"transfer: bulk data movement", out) is not None, "models lists transfer")
check(re.search(r"chunk  \(size\)  default: 64MB  range: >= 1\n\s+bytes of one write request", out) is not None,
      "models gives type, default, range and description of a parameter")
check("lognormal" in out and "weibull" in out and "empirical" in out, "models lists distributions")
check("Interface 'service':\n  choose with 'kind:'; contract: sim/svc/service.hpp; implementations: sim/svc/" in out
      and "memory_pool:" in out, "models lists the service kinds, registered next to their code")
check("Interface 'fault_model':\n  choose with 'impl:'; contract: sim/faults/fault_model.hpp; implementations: "
      "models/fault_model/" in out, "models lists the fault models")
check(re.search(r"scheduler  \(mapping\)  default: \{impl: fcfs\}\n.*\n\s+'impl:' one of: fcfs, locality, maxmin, mct, "
                r"minmax, minmin\n", out) is not None, "a key naming an implementation lists the registered names")

# validate runs nothing and writes nothing.
_, out, _ = run("validate", "scenarios/demo.yaml")
check("valid" in out and "3 phases" in out, f"validate: {out}")

# Determinism: two runs, identical summary.json except wall_time_s; CSVs identical.
first, second = scratch_dir(), scratch_dir()
run("run", "scenarios/demo.yaml", "--quiet", "--out", first, "--seed", "7")
run("run", "scenarios/demo.yaml", "--quiet", "--out", second, "--seed", "7")


def without_wall_time(directory):
    with open(os.path.join(directory, "summary.json")) as f:
        return [line for line in f.read().splitlines() if '"wall_time_s"' not in line]


check(without_wall_time(first) == without_wall_time(second), "summary.json differs between identical runs")
for name in ["stage.csv", "archive.csv", "restage.csv", "service_fs.csv", "service_vault.csv", "resolved.yaml"]:
    with open(os.path.join(first, name), "rb") as a, open(os.path.join(second, name), "rb") as b:
        check(a.read() == b.read(), f"{name} differs between identical runs")
# The same with random inputs (lognormal speeds and task sizes, exponential failures): every
# output file is identical across runs with one seed, and a different seed changes the result.
random_a, random_b, random_c = scratch_dir(), scratch_dir(), scratch_dir()
for directory, seed in [(random_a, "5"), (random_b, "5"), (random_c, "6")]:
    run("run", "tests/inputs/tasks_unreliable.yaml", "--quiet", "--out", directory, "--seed", seed)
check(without_wall_time(random_a) == without_wall_time(random_b), "tasks: summary.json differs for one seed")
for name in ["bag.csv", "bag_tasks.csv", "bag_workers.csv", "bag_worker_states.csv"]:
    with open(os.path.join(random_a, name), "rb") as a, open(os.path.join(random_b, name), "rb") as b:
        check(a.read() == b.read(), f"tasks: {name} differs for one seed")
check(without_wall_time(random_a) != without_wall_time(random_c), "tasks: another seed gives the same result")

# report.md: scenario, seed, the command that reproduces the run, every phase with its metrics.
report = open(os.path.join(first, "report.md")).read()
check(report.startswith("# demo\n") and "`scenarios/demo.yaml`, seed 7" in report, f"report header: {report[:200]}")
check("Reproduce: `llsim run scenarios/demo.yaml --seed 7`" in report, "report gives the command")
check(all(f"### {p} (transfer)" in report for p in ["stage", "archive", "restage"]), "report has every phase")
check("| `throughput_Bps` |" in report and "B/s |" in report, "metrics in readable units")
check(open(os.path.join(second, "report.md")).read() == report, "report.md is the same for the same run")
check("None drawn" in report, "no plots without --plot")

s = summary(first)
check(s["seed"] == 7 and s["scenario"] == "demo", "summary names scenario and seed")
check(set(s["phases"]["stage"]) >= {"bytes", "makespan_s", "throughput_Bps"}, "transfer metrics present")
check(s["phases"]["archive"]["start_s"] >= s["phases"]["stage"]["end_s"], "after: archive starts after stage ends")
check(s["phases"]["restage"]["start_s"] == 30, "start: restage starts at 30 s")
# The services section: every service's kind and totals; the bytes the phases moved into fs.
check(set(s["services"]) == {"fs", "vault"}, f"summary services: {list(s['services'])}")
fs = s["services"]["fs"]
check(fs["kind"] == "storage" and fs["bytes_written"] == s["phases"]["stage"]["bytes"] + s["phases"]["restage"]["bytes"],
      f"fs wrote {fs.get('bytes_written')} B, the phases sent {s['phases']['stage']['bytes']} + {s['phases']['restage']['bytes']}")
check(0 < fs["utilisation"] <= 1 and fs["operations"] > 0, f"fs totals: {fs}")

# resolved.yaml reruns to the same results.
rerun = scratch_dir()
run("run", os.path.join(first, "resolved.yaml"), "--quiet", "--out", rerun)
# The hash of the scenario text differs (another file), everything else is the same.
check([line for line in without_wall_time(first) if '"scenario_fnv1a"' not in line] ==
      [line for line in without_wall_time(rerun) if '"scenario_fnv1a"' not in line], "resolved.yaml does not reproduce the run")
check(summary(first)["scenario_fnv1a"] != summary(rerun)["scenario_fnv1a"], "summary.json names the text it ran")

# --set changes the run exactly as if written in the file.
changed = scratch_dir()
run("run", "scenarios/demo.yaml", "--quiet", "--out", changed, "--set", "phases.stage.bytes=25GB")
check(summary(changed)["phases"]["stage"]["bytes"] == 16 * 25e9, "--set phases.stage.bytes")

# Default output directory out/<scenario name>/ and the summary table on stdout.
shutil.rmtree(os.path.join(ROOT, "out", "transfer-bounds"), ignore_errors=True)
_, out, _ = run("run", "tests/inputs/transfer_bounds.yaml")
check(os.path.isfile(os.path.join(ROOT, "out", "transfer-bounds", "summary.json")), "default output directory")
check("copy" in out and "wall time" in out and "peak memory" in out, f"summary table: {out}")
check(re.search(r"\nfs +storage +service +bytes=", out) is not None, f"summary table lists the service: {out}")
shutil.rmtree(os.path.join(ROOT, "out", "transfer-bounds"), ignore_errors=True)
# --quiet drops the table of phases but keeps its last two lines, which benchmarks read.
quiet_dir = scratch_dir()
_, out, _ = run("run", "tests/inputs/transfer_bounds.yaml", "--quiet", "--out", quiet_dir)
lines = out.splitlines()
check(len(lines) == 2, f"--quiet prints two lines: {out!r}")
check(re.match(r"scenario 'transfer-bounds' seed \d+: simulated .+; wall time [0-9.]+ s; peak memory [0-9.]+ MiB$",
               lines[0]) is not None, f"--quiet keeps the wall time and peak memory line: {out!r}")
check(lines[-1] == f"outputs: {quiet_dir}/", f"--quiet keeps the outputs line: {out!r}")
check("copy" not in out, f"--quiet drops the table of phases: {out!r}")

# --log passes a category's threshold to SimGrid: storage debug lines appear on stderr.
_, _, err = run("run", "scenarios/demo.yaml", "--quiet", "--out", scratch_dir(), "--log=llsim.svc.storage:debug")
check("[llsim_svc_storage/DEBUG] write" in err, f"--log=llsim.svc.storage:debug printed nothing: {err[-500:]}")
_, _, err = run("run", "scenarios/demo.yaml", "--quiet", "--out", scratch_dir())
check("DEBUG" not in err, "debug lines without --log")

# A failure during simulation: exit 1, a message, no output directory.
failed = os.path.join(scratch_dir(), "out")
_, _, err = run("run", "scenarios/demo.yaml", "--out", failed,
                "--set", "platform.groups.storage.disks.capacity=1GB", expect=1)
check("simulation failed" in err and "is full" in err, f"disk-full message: {err}")
check(not os.path.exists(failed), "a failed run left outputs behind")

# Plots: --plot writes PNGs; plot.py without matplotlib says so and fails. Into a pipe, the
# console table comes out whole before the plot script's line.
plotted = scratch_dir()
_, out, _ = run("run", "scenarios/demo.yaml", "--plot", "--out", plotted)
lines = out.splitlines()
plots_at = [i for i, line in enumerate(lines) if "plots: " in line]
check(len(plots_at) == 1 and lines[plots_at[0]].startswith("plots: ") and plots_at[0] == len(lines) - 1,
      f"the plots line comes last, on its own line: {out[-600:]}")
for name in ["timeline.png", "stage.png", "archive.png", "service_fs.png", "service_vault.png"]:
    path = os.path.join(plotted, "plots", name)
    check(os.path.isfile(path) and os.path.getsize(path) > 1000, f"plot {name} missing")
proc = subprocess.run(["/usr/bin/python3", "-S", os.path.join(ROOT, "analysis", "plot.py"), plotted],
                      capture_output=True, text=True)
check(proc.returncode != 0 and "matplotlib is not available" in proc.stderr,
      f"plot.py without matplotlib: exit {proc.returncode}, {proc.stderr}")

# trace stats: its span with one decimal, and its usage names every option.
_, out, _ = run("trace", "stats", "traces/azure_llm_inference_2023_conv.csv")
check("19366 requests over 3501.7 s, 5.530 requests/s" in out, f"trace stats' first line: {out[:200]}")
_, _, err = run("trace", "stats", expect=2)
check("[--nodes N]" in err, f"trace stats' usage names --nodes: {err}")

# Progress line: on a terminal for runs over a second, never with --quiet or into a pipe.
# `script` (util-linux) gives llsim a pseudo-terminal.
LONG_RUN = ["scenarios/bench/transfer_100k.yaml", "--set", "platform.groups.clients.count=20000"]
tty_log = os.path.join(scratch_dir(), "typescript")
for quiet in [False, True]:
    command = " ".join([LLSIM, "run", *LONG_RUN, "--out", scratch_dir()] + (["--quiet"] if quiet else []))
    subprocess.run(["script", "-qec", command, tty_log], capture_output=True, cwd=ROOT, check=False)
    with open(tty_log, errors="replace") as f:
        shown = "[llsim] simulated" in f.read()
    check(shown != quiet, f"progress line shown={shown} with quiet={quiet} on a terminal")
_, _, err = run("run", *LONG_RUN, "--out", scratch_dir())
check("[llsim]" not in err, "progress line written to a non-terminal stderr")

# Aliases: the shared NIC applies to every group that names it; --set through one use is refused
# (it would change all three), replacing that use outright is not.
ALIASES = "tests/inputs/aliases.yaml"
out = scratch_dir()
run("run", ALIASES, "--quiet", "--out", out)
shared_nic = summary(out)["phases"]["t"]["makespan_s"]
check_close(shared_nic, 2e9 / 1e9, 0.05, "aliases: the server's shared 1 GB/s NIC bounds 2 GB")
_, _, err = run("run", ALIASES, "--quiet", "--out", os.path.join(scratch_dir(), "o"),
                "--set", "platform.groups.s.nic.bandwidth=4GBps", expect=2)
check("is used through YAML aliases" in err and "aliases.yaml:6" in err, f"--set through an alias: {err}")
out = scratch_dir()
run("run", ALIASES, "--quiet", "--out", out, "--set", "platform.groups.s.nic={bandwidth: 4GBps, latency: 1us}")
own_nic = summary(out)["phases"]["t"]["makespan_s"]
check_close(own_nic, 2e9 / 2e9, 0.05, "aliases: a server NIC of its own, the senders' 1 GB/s each bound")
# A scalar given through an alias: replacing one use leaves the other.
out = scratch_dir()
run("run", ALIASES, "--quiet", "--out", out, "--set", "phases.u.bytes=2GB")
phases = summary(out)["phases"]
check(phases["t"]["bytes"] == 2e9 and phases["u"]["bytes"] == 4e9,
      f"aliases: --set of one use of a shared size: t {phases['t']['bytes']} B, u {phases['u']['bytes']} B")

# An anchored key used as a value (`- &k name: bag` ... `master: *k`) is one node with the key:
# a --set of the value would rename the key, and is refused.
KEY_ALIAS = "tests/inputs/key_alias.yaml"
run("validate", KEY_ALIAS)
_, _, err = run("validate", KEY_ALIAS, "--set", "phases.bag.master=head", expect=2)
check("is used through YAML aliases" in err, f"--set of a value that is an aliased key: {err}")

# An --out that cannot be written is an error before anything is simulated (a file in its path;
# the scenario would run for minutes otherwise), and nothing is created.
blocker = os.path.join(scratch_dir(), "a_file")
with open(blocker, "w") as f:
    f.write("x")
_, _, err = run("run", "tests/inputs/tasks_unreliable.yaml", "--quiet", "--out", os.path.join(blocker, "out"), expect=2)
check("is not a directory" in err and "a_file" in err, f"unwritable --out: {err}")

finish()
