"""Measured attention times through llsim: with Vidur's attention.csv (Llama-2-70B's shape at TP2
on an A100) in `profile:`, a lone request's prefill and decode attention are the file's times at
its own points, exactly, and lie between them elsewhere; without it, the attention roofline's
closed form; `calibrate --attention` reads the file; bad files are errors naming file and line."""
import csv
import json
import math
import os
import shutil

from harness import ROOT, check, check_close, finish, run, run_fails, scratch_dir

SCENARIO = "tests/inputs/serve_operators.yaml"
ATTENTION = os.path.join(ROOT, "traces/calibration/vidur/a100/llama-2-70b-attention")
LLAMA70_TP2 = ["phases.chat.model={preset: llama2-70b}", "platform.groups.gpu.gpu.count=2",
               f"phases.chat.iteration={{impl: operators, profile: {ATTENTION}}}"]
LAYERS = 80


def operators(*sets):
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "chat_operators.csv")) as f:
        return {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}


# The file's own times, per (kind, key, context): averaged rows, in seconds per layer.
measured = {}
with open(os.path.join(ATTENTION, "attention.csv")) as f:
    for r in csv.DictReader(f):
        prefill = r["is_prefill"] == "True"
        key = int(r["prefill_chunk_size" if prefill else "batch_size"])
        kernel = float(r["time_stats.attn_prefill.median" if prefill else "time_stats.attn_decode.median"])
        ms = kernel + float(r["time_stats.attn_input_reshape.median"]) + float(r["time_stats.attn_output_reshape.median"])
        measured.setdefault((prefill, key, int(r["kv_cache_size"])), []).append(ms / 1000)
at = {k: sum(v) / len(v) for k, v in measured.items()}

# --- A lone prompt of 512 tokens (a measured chunk, no context), then one decode at 512 tokens
# of context, batch 1 (a measured decode point).
ops = operators(*LLAMA70_TP2, "phases.chat.workload.input_tokens=512", "phases.chat.workload.output_tokens=2")
check_close(ops["attn_prefill"], LAYERS * at[(True, 512, 0)], 1e-9, "prefill attention: the profile's chunk 512")
check_close(ops["attn_decode"], LAYERS * at[(False, 1, 512)], 1e-9, "decode attention: the profile's batch 1, 512")

# Between measured chunks the time lies between theirs.
chunks = sorted(k for p, k, c in at if p and c == 0)
below = max(c for c in chunks if c < 1000)
above = min(c for c in chunks if c > 1000)
ops = operators(*LLAMA70_TP2, "phases.chat.workload.input_tokens=1000")
low, high = sorted([LAYERS * at[(True, below, 0)], LAYERS * at[(True, above, 0)]])
check(low <= ops["attn_prefill"] <= high, f"1000 tokens lies between chunks {below} and {above}: "
      f"{low} <= {ops['attn_prefill']} <= {high}")

# A batch of prefills reads as one chunk of sqrt(sum of squares) tokens after the sum of their
# contexts (Vidur's aggregate): prompts of 1,000 and 64 tokens arriving together take the time of
# a 1,002.05-token chunk (not twice a 532-token one, as a mean prefill would).
log = os.path.join(scratch_dir(), "pair.jsonl")
with open(log, "w") as f:
    for i, n in enumerate((1000, 64)):
        f.write(json.dumps({"request_id": i, "input_tokens": n, "output_tokens": 1, "arrival_s": 0,
                            "first_token_s": 1, "last_token_s": 1}) + "\n")
pair = operators(*LLAMA70_TP2, f"phases.chat.workload={{trace: {log}, format: requests}}")
n = math.sqrt(1000 ** 2 + 64 ** 2)
lo, hi = max(c for c in chunks if c <= n), min(c for c in chunks if c > n)
expected = at[(True, lo, 0)] + (at[(True, hi, 0)] - at[(True, lo, 0)]) * (n - lo) / (hi - lo)
check_close(pair["attn_prefill"], LAYERS * expected, 1e-9, "two prompts: one chunk of sqrt(1000^2 + 64^2)")
# Beyond the longest chunk profiled (4,096), the time at 4,096 grows with the token pairs.
beyond = operators(*LLAMA70_TP2, "phases.chat.workload.input_tokens=8192")
pairs = lambda n: n * (n + 1) / 2  # no context
check_close(beyond["attn_prefill"], LAYERS * at[(True, 4096, 0)] * pairs(8192) / pairs(4096), 1e-9,
            "8,192 tokens: the 4,096-token time x the ratio of token pairs")

# --- Without the profile: the attention roofline, attention_overhead + max(flop / (peak x
# attention_efficiency), bytes / (hbm x bandwidth_efficiency)), defaults 15.21 us and 0.2707.
# Llama-3-70B on 8 A100s, 4000 tokens: 64 query heads x 128 / 8 = 1024 wide per GPU.
ops = operators()
T, Q = 4000, 1024
flop = 4 * Q * T * (T + 1) / 2
kv_bytes = T * 2 * 1 * 128 * 2 + 2 * T * Q * 2  # KV of one KV head per GPU, queries in and out
expected = LAYERS * (15.21e-6 + max(flop / (312e12 * 0.2707), kv_bytes / (2039e9 * 0.8)))
check_close(ops["attn_prefill"], expected, 1e-9, "the attention roofline's closed form")
for key, value in [("attention_efficiency", 0.5), ("attention_overhead", "100us")]:
    moved = operators(f"phases.chat.iteration.{key}={value}")
    check(moved["attn_prefill"] != ops["attn_prefill"], f"{key} moves the attention time")

# --- calibrate reads the same file: fitting nothing, it reports every row.
_, out, _ = run("calibrate", "--model", "preset: llama2-70b", "--gpu", "preset: a100-80gb-sxm, count: 2",
                "--attention", os.path.join(ATTENTION, "attention.csv"), "--fit", "none")
rows = sum(len(v) for v in measured.values())
check(f"{rows} measurements, fitting nothing" in out, f"calibrate --attention reads {rows} rows")

# --- Errors name the file and line; nothing is written.
bad = scratch_dir()


def fails(text, *sets):
    run_fails(SCENARIO, text, *sets)


fails("no rows for num_tensor_parallel_workers 4 (it has 2)", *LLAMA70_TP2, "platform.groups.gpu.gpu.count=4")
fails("attention.csv:2: the profile was measured for n_embd 8192; the model has d_model 4096",
      *LLAMA70_TP2, "phases.chat.model={preset: llama2-7b}")
with open(os.path.join(ATTENTION, "attention.csv")) as f:
    lines = f.read().splitlines()
header = lines[0].split(",")
broken = lines[1].split(",")
broken[header.index("is_prefill")] = "maybe"
os.makedirs(os.path.join(bad, "attention"))
with open(os.path.join(bad, "attention", "attention.csv"), "w") as f:
    f.write("\n".join([lines[0], lines[2], ",".join(broken)]) + "\n")
fails("attention.csv:3: column 'is_prefill': 'maybe' (expected True or False)", *LLAMA70_TP2[:2],
      f"phases.chat.iteration={{impl: operators, profile: {os.path.join(bad, 'attention')}}}")
_, _, err = run("calibrate", "--model", "preset: llama2-70b", "--gpu", "preset: a100-80gb-sxm, count: 2",
                "--attention", os.path.join(bad, "attention", "attention.csv"), expect=2)
check("attention.csv:3: column 'is_prefill'" in err, f"calibrate names the line: {err.strip()}")

finish()
