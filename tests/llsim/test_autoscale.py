"""Autoscaling (sim/serve/scaling/autoscaler.hpp) through llsim: under a constant load the `target` policy
settles at the smallest instance count that meets its target and stays there; after a step in
load it follows within a cooldown, a decision and the requests' own latency; `schedule` follows
its table; min, max, cooldown, scale_down_delay, period, provisioning and the metric each change
the run; a cold start lasts its provisioning plus its weight load; instance-seconds integrate the
allocation. Bad policies are located errors."""
import csv
import json
import os

from harness import check, check_close, finish, phase_metrics, run_fails, run_out, scratch_dir, summary

SCENARIO = "tests/inputs/autoscale.yaml"  # 10 requests/s, target 4 running per instance, up to 8
TARGET = 4


def scaling(*sets):
    out = run_out(SCENARIO, *sets)
    with open(os.path.join(out, "chat_scaling.csv")) as f:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]
    return summary(out)["phases"]["chat"], rows, out


# Constant load: from 100 s on, one count, the smallest whose running sequences per instance meet
# the target.
m, rows, _ = scaling()
late = [r for r in rows if r["time_s"] >= 100]
counts = {r["decided"] for r in late}
check(len(counts) == 1, f"constant load: one instance count from 100 s on, no oscillation: {sorted(counts)}")
n = late[-1]["decided"]
check(all(r["running"] / n <= TARGET < r["running"] / (n - 1) for r in late),
      f"{n:.0f} instances is the smallest count meeting {TARGET} running each: running {late[-1]['running']}")
check(m["slo_attainment"] > 0.99 and m["completed"] == m["requests"], f"the SLO holds: {m['slo_attainment']}")
# Instance-seconds: the allocation integrated over the phase (a released instance holds its GPUs
# until its last request ends: a little more).
start = m["start_s"]
integral = sum(r["allocated"] * 10 for r in rows) + rows[-1]["decided"] * (m["end_s"] - rows[-1]["time_s"])
check_close(m["instance_time_s"], integral, 0.01, "instance-seconds integrate the allocation")
check(m["peak_instances"] == 8 and m["cold_starts"] == 7, f"from 1 to 8 once: {m['peak_instances']}, "
      f"{m['cold_starts']} cold starts")
static = phase_metrics(SCENARIO, "chat", "phases.chat.autoscale={impl: none}")
check_close(static["instance_time_s"], 8 * (static["end_s"] - static["start_s"]), 1e-9,
            "without autoscaling: every instance the whole phase")
check(m["instance_time_s"] < 0.8 * static["instance_time_s"], "autoscaling holds fewer GPU-seconds")


def step_trace():
    """5 requests/s for 200 s, then 20/s for 200 s: a Mooncake-format trace."""
    path = os.path.join(scratch_dir(), "step.jsonl")
    with open(path, "w") as f:
        t = 0.0
        while t < 400:
            f.write(json.dumps({"timestamp": round(t * 1000), "input_length": 500, "output_length": 200,
                                "hash_ids": []}) + "\n")
            t += 0.2 if t < 200 else 0.05
    return path


trace = step_trace()
m, rows, out = scaling(f"phases.chat.workload={{trace: {trace}, format: mooncake}}")
with open(os.path.join(out, "chat_requests.csv")) as f:
    latency = max(float(r["finish_s"]) - float(r["arrival_s"]) for r in csv.DictReader(f))
before = [r for r in rows if 150 <= r["time_s"] < 200]
after = [r for r in rows if r["time_s"] >= 300]
final = after[-1]["decided"]
check(before[-1]["decided"] < final, f"the step raises the count: {before[-1]['decided']} -> {final}")
reached = min(r["time_s"] for r in rows if r["time_s"] >= 200 and r["allocated"] >= final)
check(reached <= m["start_s"] + 200 + 30 + 10 + latency,
      f"it follows within cooldown + one decision + a request's latency ({latency:.1f} s): at {reached} s")

# rate_profile: the arrivals at trace time t >= 300 s come at 300 + (t - 300) / 2.
_, _, out = scaling("phases.chat.workload.rate_profile=[{from: 300s, scale: 2}]", "phases.chat.workload.requests=4000")
with open(os.path.join(out, "chat_requests.csv")) as f:
    arrivals = [float(r["arrival_s"]) for r in csv.DictReader(f)]
expected = [0.1 * k if 0.1 * k < 300 else 300 + (0.1 * k - 300) / 2 for k in range(4000)]
check(all(abs(a - e) < 1e-6 for a, e in zip(arrivals, expected)), "rate_profile warps the arrivals")
run_fails(SCENARIO, "rate_profile[1].from: steps must be in increasing time order",
          "phases.chat.workload.rate_profile=[{from: 300s, scale: 2}, {from: 100s, scale: 1}]")
run_fails(SCENARIO, "rate_profile[0].scale: value 0 is out of range",
          "phases.chat.workload.rate_profile=[{from: 300s, scale: 0}]")

# min and max bound it; the metric, the target, the period and the delays change it.
base, _, _ = scaling()
_, rows, _ = scaling("phases.chat.autoscale.max=3")
check(max(r["allocated"] for r in rows) == 3, "max 3 holds")
_, rows, _ = scaling("phases.chat.autoscale.min=6")
check(min(r["allocated"] for r in rows[1:]) == 6 and rows[0]["allocated"] == 6, "min 6 holds, from the start")
for key, value in [("target", "2"), ("metric", "queue_length"), ("period", "5s"), ("cooldown", "100s"),
                   ("scale_down_delay", "200s")]:
    other, _, _ = scaling(f"phases.chat.autoscale.{key}={value}")
    check(other["instance_time_s"] != base["instance_time_s"],
          f"autoscale.{key}={value} changes the instance-seconds: {other['instance_time_s']} against "
          f"{base['instance_time_s']}")

# A schedule: 2 instances, then 6 from 100 s, then 3 from 300 s (no delays).
_, rows, _ = scaling("phases.chat.autoscale={impl: schedule, cooldown: 0s, scale_down_delay: 0s, table: "
                     "[{at: 0s, instances: 2}, {at: 100s, instances: 6}, {at: 300s, instances: 3}]}")
wanted = [2 if r["time_s"] < 100 else 6 if r["time_s"] < 300 else 3 for r in rows]
check([r["decided"] for r in rows] == wanted, "the schedule is followed at each decision")

# Cold starts: 20 s of provisioning, then 13.48 GB of weights from a 4 GB/s file system, the 7
# instances started at the first decision sharing it.
m, rows, out = scaling("phases.chat.autoscale.provisioning=20s",
                       "phases.chat.weights={path: models/llama2-7b, from: pfs}")
check(m["cold_starts"] == 7, f"7 cold starts at once: {m['cold_starts']}")
check_close(m["mean_cold_start_s"], 20 + 7 * 13.48e9 / 4e9, 0.03, "a cold start lasts provisioning + the weight load")
check(m["mean_scale_to_first_token_s"] >= m["mean_cold_start_s"], "its first token comes after it can serve")
check(m["scaling_requests"] > 0, f"requests arrive during cold starts: {m['scaling_requests']}")
check(summary(out)["services"]["pfs"]["bytes_read"] == m["weight_bytes_loaded"] == 8 * 13.48e9,
      "the file system reads the loads' bytes and nothing more (the instances released at the start read none)")
with open(os.path.join(out, "chat_loads.csv")) as f:
    first = next(csv.DictReader(f))
check_close(float(first["seconds"]), 13.48e9 / 4e9, 0.03, "the instance allocated at the start loads alone")

# Released while still loading, with requests queued: it loads, serves them, then gives its GPUs
# back (4 instances at the start, 1 from 2 s).
m, rows, _ = scaling("phases.chat.weights={path: models/llama2-7b, from: pfs}", "phases.chat.workload.requests=100",
                     "phases.chat.autoscale={impl: schedule, period: 1s, cooldown: 0s, scale_down_delay: 0s, "
                     "table: [{at: 0s, instances: 4}, {at: 2s, instances: 1}]}")
check(m["completed"] == 100 and rows[-1]["allocated"] == 1, f"a release during loads: {m['completed']} completed")
# The schedule's first count is held within max.
_, rows, _ = scaling("phases.chat.autoscale={impl: schedule, max: 2, table: [{at: 0s, instances: 8}]}")
check(rows[0]["allocated"] == 2 and max(r["allocated"] for r in rows) == 2, "max bounds the schedule from the start")
# Without cold starts in progress (no provisioning, no weights), nothing is measured during them.
check(base["scaling_requests"] == 0 and base["scaling_slo_attainment"] is None and
      base["mean_cold_start_s"] == 0, f"no requests during cold starts: {base['scaling_slo_attainment']}")

# Bad input.
run_fails(SCENARIO, "autoscale.min: 9 is more than max (8)", "phases.chat.autoscale.min=9")
run_fails(SCENARIO, "autoscale.max: 9 is more than the system's 8 instances", "phases.chat.autoscale.max=9")
run_fails(SCENARIO, "autoscale.cooldown: value -1 s is out of range", "phases.chat.autoscale.cooldown=-1s")
run_fails(SCENARIO, "autoscale.provisioning: value -5 s is out of range", "phases.chat.autoscale.provisioning=-5s")
run_fails(SCENARIO, "autoscale.metric: unknown metric 'latency'", "phases.chat.autoscale.metric=latency")
run_fails(SCENARIO, "autoscale.target: kv_use is a share", "phases.chat.autoscale.metric=kv_use")
run_fails(SCENARIO, "table[1].at: entries must be in increasing time order",
          "phases.chat.autoscale={impl: schedule, table: [{at: 10s, instances: 2}, {at: 5s, instances: 3}]}")
run_fails(SCENARIO, "autoscale: this serving system does not scale",
          "phases.chat.system={impl: vllm, instances: gpu, tp: 1, pp: 2}", "platform.groups.gpu.gpu.count=2")
finish()
