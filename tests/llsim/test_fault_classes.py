"""Faults by component through llsim (fault model `components`, restart spares): superposition of
the components' rates over more than 10,000 job failures, each class's share of them, the time
lost per class adding up to the run's, every parameter of a component and of the spares changing
what it should, and spares against the closed form with a trace of two outages."""
import csv
import os
import statistics

from harness import check, check_close, finish, run_out, summary

SCENARIO = "tests/inputs/train_components.yaml"
CLASSES = {"gpu": 0.40, "hbm": 0.25, "switch": 0.20, "software": 0.15}
SHORT = "phases.0.work=5d"


def rows(out, table):
    with open(os.path.join(out, f"train_{table}.csv")) as f:
        return list(csv.DictReader(f))


def components(*entries):
    return "faults.0.components=[" + ", ".join(entries) + "]"


GPU = "{class: gpu, count: 8, mtbf: 768000s, repair: 1min}"
HBM = "{class: hbm, count: 8, mtbf: 1228800s, repair: 1min}"
LEAF = "{class: switch, name: leaf, shared_by: 8, mtbf: 24000s, repair: 30s}"
SOFTWARE = "{class: software, mtbf: 256000s}"

# Superposition: the job of 64 hosts fails at Σλ = 1 / 600 s (each switch counted once, not once
# per host under it), and each class takes λ_class / Σλ of the failures. The counts are Poisson:
# over 50,000 failures one σ is 0.45% of the rate and 1.1% of the smallest share (0.15).
out = run_out(SCENARIO)
m = summary(out)["phases"]["train"]
check(m["failures"] >= 10000, f"at least 10,000 failures: {m['failures']}")
check_close(m["job_mtbf_s"], 600, 1e-9, "job MTBF: 512 GPUs, 512 HBM stacks, 8 switches, 64 software stacks")
check_close(m["failures"] / m["makespan_s"], 1 / 600, 0.03, "failures per second = Σλ")
for cls, share in CLASSES.items():
    check_close(m[f"interruptions_{cls}"] / m["failures"], share, 0.03, f"share of {cls} failures")
check(m["interruptions_nic"] == 0 and m["interruptions_host"] == 0, "no failures of classes the hosts do not have")
ALL = ("gpu", "hbm", "nic", "switch", "host", "software", "maintenance", "other")
lost = sum(m[f"lost_{c}_s"] for c in ALL)
check_close(lost, m["wasted_s"] + m["restarting_s"], 1e-9, "time lost per class adds up to wasted + restarting")
failures = rows(out, "failures")
check(len(failures) == m["failures"], "one row per failure in train_failures.csv")
for cls in CLASSES:
    check(sum(r["class"] == cls for r in failures) == m[f"interruptions_{cls}"], f"{cls} rows = interruptions_{cls}")
table = rows(out, "interruptions")
check(sorted((r["class"], r["cause"]) for r in table) ==
      [("gpu", "gpu"), ("hbm", "hbm"), ("software", "software"), ("switch", "leaf")],
      f"one row per cause, named by `name` or the class: {table}")
check(sum(int(r["interruptions"]) for r in table) == m["failures"], "interruptions.csv adds up to the failures")
# Repairs: each failure's host is back after its component's repair (longer only when another
# unit of the host failed during it).
for cls, repair in (("gpu", 60), ("switch", 30), ("software", 0)):
    downs = [float(r["node_up_s"]) - float(r["time_s"]) for r in failures if r["class"] == cls]
    check(min(downs) >= repair - 1e-6, f"{cls}: no outage shorter than its repair")
    check(abs(statistics.median(downs) - repair) < 1e-6, f"{cls}: outages last the repair, {repair} s")

# Every parameter of a component changes what it should.
base = summary(run_out(SCENARIO, SHORT))["phases"]["train"]
more_gpus = summary(run_out(SCENARIO, SHORT, components(GPU.replace("count: 8", "count: 16"), HBM, LEAF,
                                                        SOFTWARE)))["phases"]["train"]
check_close(more_gpus["job_mtbf_s"], 1 / (1.4 / 600), 1e-9, "count: 16 GPUs per host add 0.4 / 600 s")
smaller_switches = summary(run_out(SCENARIO, SHORT, components(GPU, HBM, LEAF.replace("shared_by: 8", "shared_by: 4"),
                                                               SOFTWARE)))["phases"]["train"]
check_close(smaller_switches["job_mtbf_s"], 1 / (1.2 / 600), 1e-9, "shared_by: 4 makes 16 switches")
weibull = "{class: software, uptime: {dist: weibull, scale: 128000s, shape: 0.5}}"  # mean 2 x scale
check_close(summary(run_out(SCENARIO, SHORT, components(GPU, HBM, LEAF, weibull)))["phases"]["train"]["job_mtbf_s"],
            600, 1e-9, "uptime: a Weibull of the same mean gives the same MTBF")
other = summary(run_out(SCENARIO, SHORT, components(GPU, HBM, LEAF, SOFTWARE.replace("software", "other"))))
check(other["phases"]["train"]["interruptions_software"] == 0 and other["phases"]["train"]["interruptions_other"] ==
      base["interruptions_software"], "class: the same failures count under `other`")
renamed = run_out(SCENARIO, SHORT, components(GPU, HBM, LEAF.replace("leaf", "tor"), SOFTWARE))
check("tor" in [r["cause"] for r in rows(renamed, "interruptions")], "name: the cause is recorded under its name")
slow = run_out(SCENARIO, SHORT, "phases.0.restart={delay: 10s, spares: 0}",
               components(GPU.replace("1min", "10min"), HBM, LEAF, SOFTWARE))
fast = run_out(SCENARIO, SHORT, "phases.0.restart={delay: 10s, spares: 0}")
check(summary(slow)["phases"]["train"]["host_wait_s"] > summary(fast)["phases"]["train"]["host_wait_s"],
      "repair: without spares the job waits longer for GPUs repaired in 10 min than in 1 min")

# Spares, closed form. Host gpu-3 is down from 1,000 s to 8,200 s, gpu-5 from 2,000 s to 2,100 s.
trace = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "inputs", "train_two_outages.csv")
TRACE = f"faults=[{{group: gpu, impl: trace, file: train_two_outages.csv}}]"
check(os.path.exists(trace), "the two-outage trace exists")


def spares(restart):
    return summary(run_out(SCENARIO, SHORT, TRACE, f"phases.0.restart={restart}"))["phases"]["train"]


unlimited = spares("{delay: 10s, swap_time: 5min}")
# gpu-3: a spare in 300 s. gpu-5 is back in 100 s, before a spare could be swapped in: kept.
check(unlimited["spare_swaps"] == 1 and unlimited["host_wait_s"] == 400,
      f"unlimited: one swap of 5 min, one repair of 100 s: {unlimited['spare_swaps']}, {unlimited['host_wait_s']}")
quick = spares("{delay: 10s, swap_time: 1min}")
check(quick["spare_swaps"] == 2 and quick["host_wait_s"] == 120, f"a 1-min swap beats both repairs: {quick}")
one = spares("{delay: 10s, spares: 1, swap_time: 5min}")
# gpu-3: the spare swaps in (300 s). gpu-5: its own repair (100 s) comes first, as above.
check(one["spare_swaps"] == 1 and one["host_wait_s"] == 400, f"one spare: 300 + 100 s: {one['host_wait_s']}")
none = spares("{delay: 10s, spares: 0, swap_time: 5min}")
# gpu-3: wait; gpu-5 fails during the wait; the job goes on when both are back, at 8,200 s.
check(none["spare_swaps"] == 0 and none["host_wait_s"] == 7200, f"no spare: waits until 8,200 s: {none['host_wait_s']}")
check(none["failures"] == 2 and none["restarts_cut_short"] == 1, "the second failure cuts the wait short")
# Two hosts down at 1,000 s, back at 2,000 and 3,000 s, one spare: it goes to the longer repair
# (in by 1,060 s), and the job waits for the other's, whichever host is which: 1,000 s.
for name in ["train_two_at_once.csv", "train_two_at_once_swapped.csv"]:
    both = summary(run_out(SCENARIO, SHORT, f"faults=[{{group: gpu, impl: trace, file: {name}}}]",
                           "phases.0.restart={delay: 10s, spares: 1, swap_time: 1min}"))["phases"]["train"]
    check(both["failures"] == 1 and both["spare_swaps"] == 1 and both["host_wait_s"] == 1000,
          f"{name}: one interruption, one swap, waits 1,000 s: {both['failures']}, {both['spare_swaps']}, "
          f"{both['host_wait_s']}")
no_swap = spares("{delay: 10s}")
check(no_swap["host_wait_s"] == 0 and unlimited["makespan_s"] - no_swap["makespan_s"] > 0,
      "swap_time lengthens the run")

# Planned maintenance: every day, 2 h, at the first checkpoint after it is due, then a read.
def maintained(duration):
    return summary(run_out(SCENARIO, SHORT, "faults=[]",
                           f"phases.0.maintenance={{every: 1d, duration: {duration}}}"))["phases"]["train"]


two, one_hour = maintained("2h"), maintained("1h")
stops = two["interruptions_maintenance"]
check(two["failures"] == 0 and stops in (int(two["makespan_s"] // 86400), int(two["makespan_s"] // 86400) - 1),
      f"one stop per day of the run: {stops} in {two['makespan_s'] / 86400:.2f} d")
check_close(two["maintenance_s"], stops * (7200 + two["checkpoint_read_s"]), 1e-9, "each stop: 2 h and the read")
check_close(two["lost_maintenance_s"], two["maintenance_s"], 1e-12, "lost_maintenance_s is the stops' time")
check_close(two["makespan_s"], 5 * 86400 + two["blocking_s"] + two["maintenance_s"], 1e-9,
            "makespan = work + checkpoints + maintenance")
check(one_hour["maintenance_s"] < two["maintenance_s"], "duration: shorter stops cost less")
check(summary(run_out(SCENARIO, SHORT, "faults=[]"))["phases"]["train"]["interruptions_maintenance"] == 0,
      "without maintenance.every, no planned stop")

finish()
