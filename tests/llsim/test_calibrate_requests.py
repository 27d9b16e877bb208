"""`llsim calibrate --requests`: a per-request log made by llsim itself with known coefficients
(gemm_efficiency 0.5 and cpu_per_iteration 2 ms, not the defaults 0.7 and 0.8679 ms) is fitted
back by simulating the run, from the defaults: gemm_efficiency within 3%, cpu_per_iteration
within 10%. Why 10%: only the exact coefficients reproduce every batch of the log and give 0%
error, a needle no local search finds; anything else, however close, forms some batches
differently, and every point within 2% of gemm_efficiency and 5% of cpu_per_iteration lies on a
rough plateau of 2-3% error, where the search stops (docs/phases/serve.md, "Calibration"). A
real run has no such needle. Also: --max-runs bounds the runs, requests the platform cannot hold
are said, and a coefficient no request depends on, a bad log line, a roofline phase, an unknown
phase and a bad --format are errors."""
import csv
import json
import os
import random
import re

from harness import check, check_close, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_calibrate_requests.yaml"
TRUTH = {"gemm_efficiency": 0.5, "cpu_per_iteration": "2ms"}
work = scratch_dir()


def write_log(path, requests):
    with open(path, "w") as f:
        for i, r in enumerate(requests):
            f.write(json.dumps({"request_id": i, **r}) + "\n")


# 60 requests over about 30 s: prompts of 200 to 2,000 tokens, 20 to 200 tokens out.
rng = random.Random(7)
t, requests = 0.0, []
for _ in range(60):
    t += rng.expovariate(2.0)
    requests.append({"input_tokens": rng.randint(200, 2000), "output_tokens": rng.randint(20, 200),
                     "arrival_s": round(t, 6), "first_token_s": round(t, 6) + 1, "last_token_s": round(t, 6) + 2})
placeholder = os.path.join(work, "placeholder.jsonl")
write_log(placeholder, requests)

# The "measured" run: llsim with the true coefficients replays the log's arrivals and lengths.
out = os.path.join(work, "truth")
sets = [f"phases.chat.workload={{trace: {placeholder}, format: requests}}"]
sets += [f"phases.chat.iteration.{k}={v}" for k, v in TRUTH.items()]
run("run", SCENARIO, "--quiet", "--out", out, *sum((["--set", s] for s in sets), []))
with open(os.path.join(out, "chat_requests.csv")) as f:
    simulated = list(csv.DictReader(f))
check(len(simulated) == 60 and all(float(r["finish_s"]) > 0 for r in simulated), "the truth run completes all 60")
for r, s in zip(requests, simulated):  # arrivals are in order, so the rows are the log's
    r["first_token_s"] = r["arrival_s"] + float(s["first_token_s"]) - float(s["arrival_s"])
    r["last_token_s"] = r["arrival_s"] + float(s["finish_s"]) - float(s["arrival_s"])
log = os.path.join(work, "measured.jsonl")
write_log(log, requests)

# --- Fitted back from the defaults (0.7, 0.8, 0.8679 ms).
errors = os.path.join(work, "errors.csv")
_, text, _ = run("calibrate", "--requests", log, "--scenario", SCENARIO, "--phase", "chat", "--errors", errors)
block = re.search(r"^iteration: \{(.*)\}$", text, re.M).group(1)
values = dict(kv.split(": ") for kv in block.split(", "))
check(set(values) == {"impl", "gemm_efficiency", "cpu_per_iteration"}, f"fits the default keys: {block}")
check_close(float(values["gemm_efficiency"]), 0.5, 0.03, "gemm_efficiency recovered")
check_close(float(values["cpu_per_iteration"].rstrip("ms")), 2.0, 0.10, "cpu_per_iteration recovered (ms)")
fitted = float(re.search(r"error on the 48 requests fitted: mean ([0-9.]+)%", text).group(1))
held = float(re.search(r"held-out error \(the last 12 requests, not fitted\): mean ([0-9.]+)%", text).group(1))
check(fitted < 3 and held < 5, f"fitted {fitted}% and held-out {held}% errors at the rough floor")
check(re.search(r"by \d+ simulations of phase 'chat'", text) is not None, f"says how many runs: {text[:300]}")
with open(errors) as f:
    rows = list(csv.DictReader(f))
check(len(rows) == 60 and sum(r["held_out"] == "1" for r in rows) == 12, "--errors lists every request")

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
