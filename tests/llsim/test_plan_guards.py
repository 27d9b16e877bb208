"""`llsim plan` telling the user where its answer may mislead them (docs/plan.md): a list axis of
numbers that falls, an infeasible verdict that more seeds might change, the same plan named by
another path, and refusals that say what differs."""
import os

from harness import check, finish, run, scratch_dir

SCENARIO = "scenarios/plan/serve_instances.yaml"
TARGET = ["--target", "chat.slo_attainment>=0.95"]

# 16,15,14 lists the instances falling: the search takes the last value as the most capable, so
# it runs 14 alone, which misses, and says the plan is infeasible. It warns about the order.
out = scratch_dir()
_, stdout, err = run("plan", SCENARIO, "--axis", "platform.groups.gpu.count=16,15,14", *TARGET, "--out", out,
                     "--quiet", expect=3)
check("warning: --axis platform.groups.gpu.count lists 16 before 15: the search takes the values in the order given"
      in err, f"a falling list is warned about: {err}")
check("**Warning:** --axis platform.groups.gpu.count lists 16 before 15" in open(os.path.join(out, "report.md")).read(),
      "report.md repeats the warning")
_, _, err = run("plan", SCENARIO, "--axis", "platform.groups.gpu.count=14,15,16", *TARGET, "--out", scratch_dir(),
                "--quiet")
check("lists" not in err, f"a rising list is not warned about: {err}")

# With 2 seeds the 95% interval is wide (t = 12.7): 14 instances reach a mean attainment of 0.94
# but their interval's lower bound is about 0.46, so nothing meets >= 0.9. The plan says that the
# mean of a point it ran meets.
out = scratch_dir()
_, stdout, err = run("plan", SCENARIO, "--axis", "platform.groups.gpu.count=10..14", "--target",
                     "chat.slo_attainment>=0.9", "--seeds", "2", "--out", out, "--quiet", expect=3)
check("warning: 1 of the 1 points run meet every target on their mean but not with 95% confidence over 2 seeds" in err,
      f"an infeasible plan with few seeds says more may help: {err}")
_, _, err = run("plan", SCENARIO, "--axis", "platform.groups.gpu.count=10..14", "--target",
                "chat.slo_attainment>=0.99", "--seeds", "2", "--out", scratch_dir(), "--quiet", expect=3)
check("on their mean" not in err, f"no such note when no mean meets: {err}")

# The same plan by another path to the same scenario keeps its runs; another plan is refused,
# naming what differs; the console counts the runs kept.
out = scratch_dir()
run("plan", SCENARIO, "--axis", "platform.groups.gpu.count=15,16", *TARGET, "--out", out, "--quiet")
_, stdout, _ = run("plan", "./" + SCENARIO, "--axis", "platform.groups.gpu.count=15,16", *TARGET, "--out", out,
                   "--quiet")
check("2 runs (2 points x 1 seeds; 0 run now, 2 kept) of 2 for the full grid" in stdout,
      f"./scenarios/... is the same plan, its runs kept: {stdout}")
for other, differs in [(["--axis", "platform.groups.gpu.count=15,17"], "its axes differ"),
                       (["--axis", "platform.groups.gpu.count=15,16", "--set", "phases.chat.slo.ttft=3s"],
                        "its --set differ")]:
    _, _, err = run("plan", SCENARIO, *other, *TARGET, "--out", out, "--quiet", expect=2)
    check(f"holds the runs of another plan ({out}/plan.json: {differs})" in err, f"refused, saying {differs}: {err}")

# Bad command lines name the option at fault: exit 2, nothing written.
for extra, text in [
    (["--axis", "platform.groups.gpu.count=1..4", *TARGET, *TARGET],
     "--target chat.slo_attainment>=0.95 is given twice"),
    (["--axis", "platform.groups.nope.count=1..4"],
     "--axis platform.groups.nope.count=1: platform.groups.nope: missing required key 'nic'"),
    (["--unimodal", "phases.chat.slo.ttft=1s,x"], "--unimodal phases.chat.slo.ttft=x: phases[0].slo.ttft: 'x' is not a number"),
]:
    out = os.path.join(scratch_dir(), "out")
    _, _, err = run("plan", SCENARIO, *extra, "--out", out, "--quiet", expect=2)
    check(text in err, f"bad plan {extra}: error says {text!r}: {err.strip()}")
    check(not os.path.exists(out), f"bad plan {extra}: nothing written")
finish()
