"""`llsim calibrate --requests`: a per-request log made by llsim itself with known coefficients
(gemm_efficiency 0.5 and cpu_per_iteration 2 ms, not the defaults 0.7 and 0.8679 ms) is fitted
back by simulating the run, from the defaults. With the requests far enough apart that none
waits for another (every 3 to 4 s), each TTFT is a prefill and each token gap a decode step, and
both come back within 1%. With them overlapping (2 a second) a request's times jump whenever a
batch forms differently, and the fit only has to beat the defaults' error: docs/phases/serve.md
("Calibration") gives the figures. Also: --max-runs bounds the runs, requests the platform cannot
hold are said, and a coefficient no request depends on, a bad log line, a roofline phase, an
unknown phase and a bad --format are errors."""
import csv
import json
import os
import random
import re

from harness import ROOT, check, check_close, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_calibrate_requests.yaml"
TRUTH = {"gemm_efficiency": 0.5, "cpu_per_iteration": "2ms"}
work = scratch_dir()


def write_log(path, requests):
    with open(path, "w") as f:
        for i, r in enumerate(requests):
            f.write(json.dumps({"request_id": i, **r}) + "\n")


def measured_log(name, gap):
    """60 requests `gap()` apart (prompts of 200 to 2,000 tokens, 20 to 200 out), their times those
    of llsim run with the true coefficients: the log's path and its requests."""
    rng = random.Random(7)
    t, requests = 0.0, []
    for _ in range(60):
        t += gap(rng)
        requests.append({"input_tokens": rng.randint(200, 2000), "output_tokens": rng.randint(20, 200),
                         "arrival_s": round(t, 6), "first_token_s": round(t, 6) + 1,
                         "last_token_s": round(t, 6) + 2})
    placeholder = os.path.join(work, name + "_placeholder.jsonl")
    write_log(placeholder, requests)
    out = os.path.join(work, name + "_truth")
    sets = [f"phases.chat.workload={{trace: {placeholder}, format: requests}}"]
    sets += [f"phases.chat.iteration.{k}={v}" for k, v in TRUTH.items()]
    run("run", SCENARIO, "--quiet", "--out", out, *sum((["--set", s] for s in sets), []))
    with open(os.path.join(out, "chat_requests.csv")) as f:
        simulated = list(csv.DictReader(f))
    check(len(simulated) == 60 and all(float(r["finish_s"]) > 0 for r in simulated), f"{name}: truth completes 60")
    for r, s in zip(requests, simulated):  # arrivals are in order, so the rows are the log's
        r["first_token_s"] = r["arrival_s"] + float(s["first_token_s"]) - float(s["arrival_s"])
        r["last_token_s"] = r["arrival_s"] + float(s["finish_s"]) - float(s["arrival_s"])
    path = os.path.join(work, name + ".jsonl")
    write_log(path, requests)
    return path, requests


def fitted_error(text):
    return float(re.search(r"requests fitted: mean ([0-9.]+)%", text).group(1))


log, requests = measured_log("apart", lambda rng: 3 + rng.random())

# --- Fitted back from the defaults (0.7, 0.8, 0.8679 ms).
errors = os.path.join(work, "errors.csv")
_, text, _ = run("calibrate", "--requests", log, "--scenario", SCENARIO, "--phase", "chat", "--errors", errors)
block = re.search(r"^iteration: \{(.*)\}$", text, re.M).group(1)
values = dict(kv.split(": ") for kv in block.split(", "))
check(set(values) == {"impl", "gemm_efficiency", "cpu_per_iteration"}, f"fits the default keys: {block}")
check_close(float(values["gemm_efficiency"]), 0.5, 0.01, "gemm_efficiency recovered")
check_close(float(values["cpu_per_iteration"].rstrip("ms")), 2.0, 0.01, "cpu_per_iteration recovered (ms)")
fitted = float(re.search(r"error on the 48 requests fitted: mean ([0-9.]+)%", text).group(1))
held = float(re.search(r"held-out error \(the last 12 requests, not fitted\): mean ([0-9.]+)%", text).group(1))
check(fitted < 0.5 and held < 0.5, f"fitted {fitted}% and held-out {held}% errors near zero")
check(re.search(r"by \d+ simulations of phase 'chat'", text) is not None, f"says how many runs: {text[:300]}")
with open(errors) as f:
    rows = list(csv.DictReader(f))
check(len(rows) == 60 and sum(r["held_out"] == "1" for r in rows) == 12, "--errors lists every request")

# The printed block keeps the phase's other iteration keys, which every run kept.
with open(os.path.join(ROOT, SCENARIO)) as f:
    scenario = f.read().replace("iteration: {impl: operators}", "iteration: {impl: operators, kernel_launch: 6us}")
own = os.path.join(work, "own.yaml")
with open(own, "w") as f:
    f.write(scenario)
_, text, _ = run("calibrate", "--requests", log, "--scenario", own, "--phase", "chat", "--max-runs", "5")
check("iteration: {impl: operators, kernel_launch: 6us, gemm_efficiency:" in text, f"keeps the phase's keys: {text}")

# Overlapping requests (2 a second): the fit beats the defaults, which is all it must do here.
busy, _ = measured_log("busy", lambda rng: rng.expovariate(2.0))
_, text, _ = run("calibrate", "--requests", busy, "--scenario", SCENARIO, "--phase", "chat", "--max-runs", "60")
_, check_text, _ = run("calibrate", "--requests", busy, "--scenario", SCENARIO, "--phase", "chat", "--fit", "none")
check(fitted_error(text) < fitted_error(check_text) / 2,
      f"busy: the fit's {fitted_error(text)}% against the defaults' {fitted_error(check_text)}%")

# Checking the defaults against the log: no fit, the error the defaults make.
_, text, _ = run("calibrate", "--requests", log, "--scenario", SCENARIO, "--phase", "chat", "--fit", "none")
check("fitting nothing, by 1 simulation " in text, "--fit none runs once")
default_error = float(re.search(r"requests fitted: mean ([0-9.]+)%", text).group(1))
check(default_error > 3 * fitted, f"the defaults miss the log: {default_error}% against the fit's {fitted}%")

# --- Errors: exit 2, with what is wrong.
for args, says in [
    (["--fit", "link_latency"], "no request's simulated time depends on link_latency"),
    (["--format", "mooncake"], "--format 'mooncake': expected requests or vllm_benchmark"),

]:
    _, _, err = run("calibrate", "--requests", log, "--scenario", SCENARIO, "--phase", "chat", *args, expect=2)
    check(says in err, f"{args}: {err.strip()[:400]}")
for args, says in [
    (["--scenario", "tests/inputs/serve_single.yaml", "--phase", "chat"],
     "uses the roofline iteration model; calibrate --requests fits"),
    (["--scenario", SCENARIO, "--phase", "nope"], "no phase 'nope' (its phases: chat)"),
    (["--scenario", SCENARIO, "--phase", "chat", "--max-runs", "2"],
     "--max-runs 2: fitting 2 coefficients takes 3 runs at least"),
]:
    _, _, err = run("calibrate", "--requests", log, *args, expect=2)
    check(says in err, f"{args}: {err.strip()[:300]}")
_, text, _ = run("calibrate", "--requests", log, "--scenario", SCENARIO, "--phase", "chat", "--max-runs", "7")
check("by 7 simulations" in text and "stopped at --max-runs 7" in text, f"--max-runs is a bound: {text[:200]}")
# Requests the platform cannot hold are counted and said, not hidden in the mean.
huge = os.path.join(work, "huge.jsonl")
write_log(huge, [dict(r, input_tokens=2_000_000) if i < 3 else r for i, r in enumerate(requests)])
_, text, _ = run("calibrate", "--requests", huge, "--scenario", SCENARIO, "--phase", "chat", "--fit", "none")
check("note: 3 of the requests did not complete in the simulation" in text, f"rejections said: {text[:400]}")
_, _, err = run("calibrate", "--requests", log, expect=2)
check("--requests needs --scenario" in err, f"no scenario: {err.strip()}")
bad = os.path.join(work, "bad.jsonl")
with open(log) as f, open(bad, "w") as g:
    lines = f.read().splitlines()
    g.write("\n".join(lines[:3] + ['{"request_id": 3, "input_tokens": "many"}'] + lines[4:]) + "\n")
_, _, err = run("calibrate", "--requests", bad, "--scenario", SCENARIO, "--phase", "chat", expect=2)
check("bad.jsonl:4" in err, f"a bad log line names its line: {err.strip()}")
finish()
