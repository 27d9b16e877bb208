"""Where a training job's time goes (issue 27, item 5): makespan = work + blocking_s + wasted_s +
restarting_s, with restarts cut short by further failures in restarting_s and counted; and the
bytes of checkpoints charged at a measured cost (io_replay) reported per service."""
from harness import check, check_close, finish, phase_metrics, run, scratch_dir, summary

ISSUE = "tests/inputs/train_restart_time.yaml"  # the issue's 64-node job, 24 h of work
WORK = 24 * 3600


def identity(m, work, what):
    """The makespan is the sum of its parts (to floating-point rounding). The work is whole
    iterations: `work` rounded up to one."""
    useful = m["goodput"] * m["makespan_s"]
    check(work <= useful * (1 + 1e-12) and useful < work + 10, f"{what}: useful compute {useful!r} vs work {work}")
    parts = useful + m["blocking_s"] + m["wasted_s"] + m["restarting_s"]
    check(abs(m["makespan_s"] - parts) <= 1e-9 * m["makespan_s"],
          f"{what}: makespan {m['makespan_s']!r} vs work + blocking + wasted + restarting {parts!r}")


def run_summary(scenario, *sets):
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return summary(out)


# The issue's figures: with a 2-h restart delay most of the makespan is restarting, and many
# restarts are cut short by the next failure.
slow = phase_metrics(ISSUE, "train", "phases.train.restart.delay=2h")
identity(slow, WORK, "restart.delay=2h")
check(slow["restarting_s"] > 0.5 * slow["makespan_s"], f"restart.delay=2h: restarting {slow['restarting_s']}")
check(slow["restarts_cut_short"] > 0, f"restart.delay=2h: {slow['restarts_cut_short']} restarts cut short")
check(slow["failures"] == slow["restarts"] + slow["restarts_cut_short"],
      f"every failure starts a restart that ends or is cut short: {slow['failures']} failures, "
      f"{slow['restarts']} restarts, {slow['restarts_cut_short']} cut short")
# Every restart waits its delay at least.
check(slow["restarting_s"] >= slow["restarts"] * 7200, f"restart.delay=2h: restarting {slow['restarting_s']}")

# The default delay (10 min), and other jobs with failures: a resumed one (its first read is
# restarting time), checkpoints cut short, asynchronous and multi-level modes.
default = run_summary(ISSUE)
identity(default["phases"]["train"], WORK, "the issue's job")
SYMMETRIC = ["faults=[{group: compute, impl: exponential, mtbf: 1y, downtime: 10min}]",
             "phases.train.iterations=20000", "phases.train.checkpoint.policy={impl: every_n, iterations: 100}"]
for mode in ["{impl: blocking}", "{impl: async, snapshot_bandwidth: 10GBps}",
             "{impl: multilevel, level: partner, flush_every: 3}"]:
    m = phase_metrics("tests/inputs/train_symmetric.yaml", "train", *SYMMETRIC, f"phases.train.checkpoint.mode={mode}")
    check(m["failures"] > 0, f"train_symmetric {mode}: no failures")
    identity(m, 20000 * 10, f"train_symmetric {mode}")
    check(m["restarting_s"] >= m["restarts"] * 600, f"train_symmetric {mode}: restarting {m['restarting_s']}")
partner = phase_metrics("tests/inputs/train_partner_copy.yaml", "train")
identity(partner, 2 * 86400, "train_partner_copy")

# Charged checkpoints: alone, the job writes its first checkpoint through the services and
# charges the others. Their bytes are in the services' charged totals, the file system's and
# its forwarding nodes' alike, so that moved and charged bytes make up every checkpoint.
m, pfs, fwd = default["phases"]["train"], default["services"]["pfs"], default["services"]["fwd"]
check(pfs["charged_bytes_written"] > 10 * pfs["bytes_written"],
      f"charged {pfs['charged_bytes_written']} B against {pfs['bytes_written']} B written")
check(abs(pfs["bytes_written"] + pfs["charged_bytes_written"] - m["checkpoint_bytes"]) <= 1e-6 * m["checkpoint_bytes"],
      f"written {pfs['bytes_written']} + charged {pfs['charged_bytes_written']} B vs checkpoints "
      f"{m['checkpoint_bytes']} B")
check(pfs["charged_bytes_read"] > 0, "no charged restart reads")
check_close(fwd["charged_bytes"], pfs["charged_bytes_written"] + pfs["charged_bytes_read"], 1e-12,
            "the forwarding nodes would have relayed every charged byte")
check(default["services"]["nvme"]["charged_bytes_written"] == 0, "a blocking job charged node-local bytes")
# Through the services every time, nothing is charged.
always = run_summary(ISSUE, "phases.train.checkpoint.io_replay=always", "phases.train.work=6h")
check(always["services"]["pfs"]["charged_bytes_written"] == 0 and always["services"]["fwd"]["charged_bytes"] == 0,
      "io_replay=always charged bytes")
# Node-local levels charge on the node-local service.
local = run_summary("tests/inputs/train_partner_copy.yaml")["services"]["nvme"]
check(local["charged_bytes_written"] > local["bytes_written"], f"node-local charged {local['charged_bytes_written']}")

# restart.delay may be a distribution (issue 27, item 10), drawn at each restart: a constant one is
# the plain duration exactly; a uniform one from 1 h to 3 h sits between the fixed 1 h and 3 h
# delays, is reproducible, and keeps the identity.
plain = run_summary(ISSUE, "phases.train.restart.delay=1h")
constant = run_summary(ISSUE, "phases.train.restart.delay={dist: constant, value: 1h}")
check(constant["phases"] == plain["phases"], "a constant restart.delay distribution differs from the plain duration")
varied = run_summary(ISSUE, "phases.train.restart.delay={dist: uniform, min: 1h, max: 3h}")
again = run_summary(ISSUE, "phases.train.restart.delay={dist: uniform, min: 1h, max: 3h}")
slowest = run_summary(ISSUE, "phases.train.restart.delay=3h")["phases"]["train"]
v = varied["phases"]["train"]
check(varied["phases"] == again["phases"], "a drawn restart.delay is not reproducible with the same seed")
identity(v, WORK, "restart.delay uniform 1-3 h")
check(v["restarts"] > 0 and v["restarting_s"] >= v["restarts"] * 3600, f"uniform delays below 1 h: {v}")
check(plain["phases"]["train"]["makespan_s"] < v["makespan_s"] < slowest["makespan_s"],
      f"uniform 1-3 h makespan {v['makespan_s']} outside the fixed 1 h and 3 h ones")

finish()
