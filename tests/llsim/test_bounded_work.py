"""Bounded work (docs/scenario.md, Limits): a scenario asking for more iterations,
checkpoints, weight pieces, host outages, tracking rows or autoscaler decisions than llsim
simulates is refused, naming the keys and what would fit, instead of running until killed while
its memory grows. Each case below ran for
minutes at 559e7f9 (14 GB after 60 s for the 1 ns iterations); the limits' edges still load."""
import os
import re

from harness import ROOT, check, finish, run, scratch_dir

TRAIN = "tests/inputs/train_symmetric.yaml"
WEIGHTS = "tests/inputs/weights_load.yaml"
TASKS = "tests/inputs/tasks_unreliable.yaml"


def variant(path, *replacements):
    """A copy of a shipped scenario with its text replaced, in a scratch folder."""
    with open(os.path.join(ROOT, path)) as f:
        text = f.read()
    for old, new in replacements:
        check(old in text, f"{path} has {old!r}")
        text = text.replace(old, new)
    copy = os.path.join(scratch_dir(), os.path.basename(path))
    with open(copy, "w") as f:
        f.write(text)
    return copy


def attempt(scenario, expect):
    out = os.path.join(scratch_dir(), "out")
    _, _, err = run("run", scenario, "--quiet", "--out", out, expect=expect)
    check(expect == 0 or not os.path.exists(out), f"no output from {scenario} when refused")
    return err


def loads(scenario):
    """A limit's edge: the scenario loads (its load-time checks pass) without being run."""
    run("validate", scenario)


def train(iteration, amount, policy="{impl: every_n, iterations: 1}"):
    return variant(TRAIN, ("iteration: 10s", f"iteration: {iteration}"), ("iterations: 2", amount),
                   ("policy: {impl: every_n, iterations: 1}", f"policy: {policy}"))


# Iterations, known at load time: a day of 1 ns iterations, and the iteration that would fit.
err = attempt(train("1ns", "work: 1d"), 2)
check("train_symmetric.yaml:28:11: phases[0].work: asks for 8.64e+13 iterations of a train phase" in err, err)
check("refuses more than 10000000" in err and "an iteration of at least 0.00864 s fits this work" in err, err)
err = attempt(train("1s", "iterations: 10000001"), 2)
check("phases[0].iterations: asks for 10000001 iterations" in err, err)
loads(train("1s", "iterations: 10000000"))

# Checkpoints, known once the first checkpoint's cost is: every 1 ms iteration over an hour.
err = attempt(train("1ms", "work: 1h"), 1)
check(re.search(r"train_symmetric.yaml:30:\d+: checkpoint.policy: asks for 3600000 checkpoints", err) is not None, err)
check("(one every 1 iterations)" in err and "a policy that checkpoints less often" in err, err)
attempt(train("1ms", "work: 1h", "{impl: every_n, iterations: 1000}"), 0)

# Requests of one checkpoint: 280 GB in 1-byte requests, and the request size that fits.
err = attempt(variant(TRAIN, ("request: 256MiB}", "request: 1B}")), 2)
check("phases[0].io.request: asks for 2.8e+11 requests of one checkpoint" in err, err)
check("refuses more than 100000" in err and "a request of at least 2.8 MB fits" in err, err)
loads(variant(TRAIN, ("request: 256MiB}", "request: 2.8MB}")))

# Weight pieces of one load: 141.1 GB of Llama-3-70B in 1-byte pieces, and the chunk that fits.
err = attempt(variant(WEIGHTS, ("from: pfs}", "from: pfs, chunk: 1B}")), 2)
check("phases[0].weights.chunk: asks for 1.41e+11 pieces of one weight load" in err, err)
check("a chunk of at least 1.42 MB fits" in err, err)
loads(variant(WEIGHTS, ("from: pfs}", "from: pfs, chunk: 1.42MB}")))

# Host outages: faults faster than any task can progress stop the run at the limit, located at
# the fault entry, instead of drawing outages without end.
for mtbf in ["100ns", "1us"]:
    err = attempt(variant(TASKS, ("mtbf: 2h, downtime: 1min", f"mtbf: {mtbf}, downtime: 0s")), 1)
    check("tasks_unreliable.yaml:14:5: faults of group 'workers': asks for 1000001 host outages in a run" in err,
          err)
    check("a longer mtbf fits" in err, err)

# Work only the simulation finds out: a task's checkpoints once its worker is known, the rows
# of a period's tracking and an autoscaler's decisions as they come. Each ran until killed before.
err = attempt(variant(TASKS, ("checkpoint: {impl: none}", "checkpoint: {impl: shared, interval: 1us, size: 1MB, "
                                                          "storage: ckpt}")), 1)
check(re.search(r"tasks_unreliable.yaml:\d+:\d+: phases\[0\].checkpoint.interval: asks for [0-9.e+]+ checkpoints of "
                r"one task \(task \d+: ", err) is not None, err)
check("refuses more than 100000" in err and "fits this task" in err, err)
err = attempt(variant(TASKS, ("failure_timeout: 2min", "failure_timeout: 2min\n    tracking: {period: 1ns}")), 1)
check(re.search(r"tasks_unreliable.yaml:\d+:\d+: phases\[0\].tracking.period: asks for more than 1000000 tracking "
                r"rows of a phase \(\d+ by simulated time .*, the phase still going\)", err) is not None, err)
check("a longer period or fewer workers fit" in err, err)
scaled = variant("tests/inputs/autoscale.yaml", ("period: 10s}", "period: 1ns}"))
err = attempt(scaled, 1)
check(re.search(r"autoscale.yaml:\d+:\d+: phases\[0\].autoscale.period: asks for more than 1000000 decisions of "
                r"an autoscaler \(1000001 by simulated time", err) is not None, err)
# A preprocess phase's stages share its count: 1.5 million rows of 1 ms over its stages (under a
# million in each) stop too.
err = attempt(variant("tests/inputs/preprocess_dedup.yaml", ("bytes: 400MB", "bytes: 150GB"),
                      ("scheduler: {impl: locality}}", "scheduler: {impl: locality}, sample_period: 1ms}")), 1)
check(re.search(r"preprocess_dedup.yaml:\d+:\d+: phases\[0\].sample_period: asks for more than 1000000 tracking "
                r"rows", err) is not None, err)

finish()
