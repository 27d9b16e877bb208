#!/usr/bin/env python3
"""Calibrate, then predict: the `operators` iteration model against measured serving times.

usage: analysis/validate_serving.py [--llsim build/llsim] [--out out/validate_serving] [--quick]

1. Fits the operators model's coefficients for each GPU (A100 80 GB, H100) to Vidur's measured
   Llama-2-7B operator profile (`llsim calibrate --profile`), and its CPU time per iteration and
   per sequence to Vidur's measured vLLM CPU overheads (`--cpu-overheads`). On the A100, the
   attention kernels' efficiency and fixed time are fitted to Vidur's measured FlashAttention
   times of Llama-2-70B's shape at TP2 (`--attention`); the H100 keeps those A100 figures (no
   H100 attention profile is shipped).
2. Checks those coefficients, unchanged, on the Llama-2-70B operator profile of the same GPU
   (another model, TP 1 to 8: `llsim calibrate --fit none`).
3. Predicts Splitwise's measured Llama-2-70B prompt and per-token times (DGX-A100 and DGX-H100,
   TP 2, 4 and 8, prompts of 128 to 8192 tokens, batches of 1 to 64) by running llsim on each
   configuration, none of which the fit saw: a batch of B prompts of P tokens arrives at once,
   is prefilled in one iteration (its time is the TTFT) and decodes T tokens (the mean gap
   between tokens is the token time). The iteration models: operators with the all-reduce
   timed alpha-beta over the GPU's NVLink (link_latency and link_efficiency fitted to Vidur's
   measured all-reduce times, `--all-reduce`), operators reading those measured all-reduce
   times directly (`profile:`), operators reading the measured attention times directly (A100
   TP2 only, the one degree profiled), operators with link_latency and cpu_per_iteration refitted
   to Splitwise's A100 TP2 and TP4 steps, and the roofline with its default (assumed)
   efficiencies. Those operators variants run as the engines measured ran and as the
   coefficients were fitted: vLLM V0's execution (`scheduling: serial, cuda_graphs: false`: the
   CPU in series, each operator at the batch's own token count). One more, operators_v1, runs the
   first variant with vLLM V1's execution (llsim's defaults: the CPU overlapped with the previous
   step, batches padded to CUDA graph sizes), to show what those defaults predict for these runs.

Writes OUT/points.csv (every configuration, measured and predicted) and OUT/report.md (the
error tables docs/validation.md quotes); prints the report. --quick runs one configuration per
GPU and TP degree (for the test suite).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

DATA = "traces/calibration"
GPUS = {  # Splitwise's hardware name -> (llsim preset, Vidur profile dir, Vidur network dir)
    "a100-80gb": ("a100-80gb-sxm", "a100", "a100_dgx"),
    "h100-80gb": ("h100-sxm", "h100", "h100_dgx"),
}
GPUS_BY_DIR = {profile: network for _, profile, network in GPUS.values()}
ATTENTION = f"{DATA}/vidur/a100/llama-2-70b-attention"  # Llama-2-70B's shape, TP2, A100 only
# vLLM V0's execution, as Vidur's and Splitwise's engines ran (and `llsim calibrate` fits).
V0 = "scheduling: serial, cuda_graphs: false"


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), done.stdout, done.stderr))
    return done.stdout


def iteration_block(text):
    """The {impl: operators, ...} mapping of an `iteration:` line llsim calibrate printed."""
    m = re.search(r"^iteration: (\{.*\})$", text, re.M)
    return m.group(1)


def mean_error(text):
    return re.search(r"error on the points fitted: mean ([0-9.]+)%", text).group(1)


def calibrate(llsim, gpu, profile_dir, out):
    """Coefficients fitted on the 7B profile and the CPU profile; the 70B check's error."""
    model = "preset: llama2-7b"
    fit = run([llsim, "calibrate", "--model", model, "--gpu", "preset: " + gpu,
               "--profile", f"{DATA}/vidur/{profile_dir}/llama-2-7b/mlp.csv", "--folds", "5"])
    cpu = run([llsim, "calibrate", "--model", model, "--gpu", "preset: " + gpu,
               "--cpu-overheads", f"{DATA}/vidur/cpu/a100/cpu_overheads.csv", "--folds", "0"])
    link = run([llsim, "calibrate", "--model", model, "--gpu", "preset: " + gpu,
                "--all-reduce", f"{DATA}/vidur/network/{GPUS_BY_DIR[profile_dir]}/all_reduce.csv", "--folds", "0"])
    coefficients = iteration_block(fit)[len("{impl: operators, "):-1]
    cpu_part = iteration_block(cpu)[len("{impl: operators, "):-1]
    link_part = iteration_block(link)[len("{impl: operators, "):-1]
    check = run([llsim, "calibrate", "--model", "preset: llama2-70b", "--gpu", "preset: " + gpu,
                 "--profile", f"{DATA}/vidur/{profile_dir}/llama-2-70b/mlp.csv", "--fit", "none",
                 "--start", "{" + coefficients + "}"])
    parts, texts = [coefficients, cpu_part, link_part], [fit, cpu, link, check]
    errors = {"fit": mean_error(fit), "held_out": held_out_error(fit), "cpu": mean_error(cpu),
              "link": mean_error(link), "70b": mean_error(check)}
    if profile_dir == "a100":
        attention = run([llsim, "calibrate", "--model", "preset: llama2-70b", "--gpu", f"preset: {gpu}, count: 2",
                         "--attention", f"{ATTENTION}/attention.csv", "--fit", "attention_efficiency,attention_overhead",
                         "--start", "{" + coefficients + "}", "--folds", "5"])
        block = iteration_block(attention)[1:-1].split(", ")
        parts.append(", ".join(kv for kv in block if kv.startswith("attention_")))
        texts.append(attention)
        errors["attention"] = f"{mean_error(attention)}% (5-fold held-out {held_out_error(attention)}%)"
    with open(os.path.join(out, f"calibrate_{profile_dir}.txt"), "w") as f:
        f.write("\n".join(texts))
    return ", ".join(parts), errors


def held_out_error(text):
    return re.search(r"held-out error \(5-fold, seed 1\): mean ([0-9.]+)%", text).group(1)


SCENARIO = """name: splitwise-{name}
seed: 1
platform:
  groups:
    gpu: {{count: 1, nic: {{bandwidth: 25GBps}}, gpu: {{preset: {gpu}, count: {tp}}}}}
  backbone: {{bandwidth: 100GBps}}
phases:
  - name: chat
    kind: serve
    model: {{preset: llama2-70b}}
    system: {{impl: vllm, instances: gpu}}
    batching: {{prefill_chunk: 1000000, max_batch_tokens: 1000000, max_batch_size: 256}}
    iteration: {iteration}
    workload: {{requests: {batch}, arrival: 0s, input_tokens: {prompt}, output_tokens: {tokens}}}
    slo: {{ttft: 1000s, tbt: 1000s}}
"""


def simulate(llsim, out, name, **keys):
    path = os.path.join(out, "scenarios", name + ".yaml")
    with open(path, "w") as f:
        f.write(SCENARIO.format(name=name, **keys))
    run([llsim, "run", path, "--out", os.path.join(out, "runs", name), "--quiet"])
    with open(os.path.join(out, "runs", name, "summary.json")) as f:
        m = json.load(f)["phases"]["chat"]
    if m["completed"] != keys["batch"]:
        sys.exit(f"{name}: {m['completed']} of {keys['batch']} requests completed")
    return m["mean_ttft_s"] * 1e3, m["mean_tpot_s"] * 1e3


PEAK_FLOPS = {"a100-80gb": 312e12, "h100-80gb": 989.4e12}  # dense BF16, the presets' figures
PARAMS_70B = 69e9


def impossible(hw, tp, prompt, batch):
    """A prompt time below what the prefill's 2 x params x tokens flop take at 100% of the GPUs'
    peak cannot have been measured as described (Splitwise's TP2, batch 64 rows: 796 ms and
    361 ms for 32,768 tokens that need 7.2 s and 2.3 s at peak)."""
    return 2 * PARAMS_70B * prompt * batch / (tp * PEAK_FLOPS[hw])


def measured_points(quick):
    groups = defaultdict(list)
    with open(f"{DATA}/splitwise/perf_model.csv") as f:
        for r in csv.DictReader(f):
            if r["model"] == "llama2-70b" and r["hardware"] in GPUS:
                key = (r["hardware"], int(r["tensor_parallel"]), int(r["prompt_size"]), int(r["batch_size"]),
                       int(r["token_size"]))
                groups[key].append((float(r["prompt_time"]), float(r["token_time"])))
    points = sorted(groups.items())
    if quick:
        points = [p for p in points if p[0][2:] == (512, 1, 128)]
    out, dropped = [], []
    for k, vs in points:
        prompt_ms, token_ms = sum(v[0] for v in vs) / len(vs), sum(v[1] for v in vs) / len(vs)
        if prompt_ms / 1e3 < impossible(*k[:4]):
            dropped.append(k)
        else:
            out.append((k, prompt_ms, token_ms))
    return out, dropped


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--llsim", default="build/llsim")
    parser.add_argument("--out", default="out/validate_serving")
    parser.add_argument("--quick", action="store_true")
    a = parser.parse_args()
    os.makedirs(os.path.join(a.out, "scenarios"), exist_ok=True)
    fitted, fit_errors = {}, {}
    for hw, (gpu, profile_dir, _) in GPUS.items():
        fitted[hw], fit_errors[hw] = calibrate(a.llsim, gpu, profile_dir, a.out)
    points, dropped = measured_points(a.quick)
    steps_fit, _ = fit_steps(a.llsim, a.out, points, fitted["a100-80gb"])
    variants = {  # iteration: blocks by GPU and TP degree (None: not run there)
        "operators": lambda hw, tp: "{impl: operators, %s, %s}" % (V0, fitted[hw]),
        "operators_measured_allreduce": lambda hw, tp: "{impl: operators, %s, %s, profile: %s}" % (
            V0, fitted[hw], os.path.abspath(f"{DATA}/vidur/network/{GPUS[hw][2]}")),
        "operators_measured_attention": lambda hw, tp: "{impl: operators, %s, %s, profile: %s}" % (
            V0, fitted[hw], os.path.abspath(ATTENTION)) if (hw, tp) == ("a100-80gb", 2) else None,
        "operators_steps_fit": lambda hw, tp: "{impl: operators, %s, %s}" % (V0, merged(fitted[hw], steps_fit)),
        "operators_v1": lambda hw, tp: "{impl: operators, %s}" % fitted[hw],
        "roofline": lambda hw, tp: "{impl: roofline}",
    }
    rows = []
    for (hw, tp, prompt, batch, tokens), prompt_ms, token_ms in points:
        row = {"hardware": hw, "tp": tp, "prompt": prompt, "batch": batch, "tokens": tokens,
               "measured_prompt_ms": prompt_ms, "measured_token_ms": token_ms}
        for v, iteration in variants.items():
            name = f"{v}_{hw}_tp{tp}_p{prompt}_b{batch}_t{tokens}"
            block = iteration(hw, tp)
            row[v + "_prompt_ms"], row[v + "_token_ms"] = ("", "") if block is None else simulate(
                a.llsim, a.out, name, gpu=GPUS[hw][0], tp=tp, iteration=block, batch=batch,
                prompt=prompt, tokens=tokens)
        rows.append(row)
    with open(os.path.join(a.out, "points.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    report = render(rows, fitted, fit_errors, variants, dropped)
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write(report)
    print(report, end="")


def merged(base, override):
    """Two "key: value, ..." lists, the second's values replacing the first's."""
    items = dict(kv.split(": ") for kv in base.split(", "))
    items.update(kv.split(": ") for kv in override.split(", "))
    return ", ".join(f"{k}: {v}" for k, v in items.items())


STEP_FIT = ("a100-80gb", (2, 4))  # the part of Splitwise's data the steps fit sees


def fit_steps(llsim, out, points, a100):
    """link_latency and cpu_per_iteration fitted to Splitwise's A100 TP2 and TP4 times, the kernel
    coefficients staying those of the profile fit; returns them as "key: value, ..."."""
    path = os.path.join(out, "splitwise_a100_tp2_tp4_steps.csv")
    rows = 0
    with open(path, "w") as f:
        f.write("prefills,prefill_tokens,decodes,context,seconds,tp\n")
        for (hw, tp, prompt, batch, tokens), prompt_ms, token_ms in points:
            if hw == STEP_FIT[0] and tp in STEP_FIT[1]:
                f.write(f"{batch},{batch * prompt},0,0,{prompt_ms / 1e3},{tp}\n")
                f.write(f"0,0,{batch},{prompt + tokens // 2},{token_ms / 1e3},{tp}\n")
                rows += 2
    text = run([llsim, "calibrate", "--model", "preset: llama2-70b", "--gpu", "preset: a100-80gb-sxm",
                "--steps", path, "--fit", "link_latency,cpu_per_iteration", "--start", "{" + a100 + "}",
                "--folds", str(min(5, rows))])
    block = iteration_block(text)[1:-1].split(", ")
    fitted = ", ".join(kv for kv in block if kv.split(":")[0] in ("link_latency", "cpu_per_iteration"))
    with open(os.path.join(out, "calibrate_steps.txt"), "w") as f:
        f.write(text)
    return fitted, text


def error(rows, variant, what):
    """Mean, median and max error over the rows the variant ran; None where it ran none."""
    e = sorted(abs(r[f"{variant}_{what}_ms"] / r[f"measured_{what}_ms"] - 1) for r in rows
               if r[f"{variant}_{what}_ms"] != "")
    return (100 * sum(e) / len(e), 100 * e[len(e) // 2], 100 * e[-1]) if e else None


def render(rows, fitted, fit_errors, variants, dropped):
    out = ["## Calibrated (fitted) coefficients", ""]
    for hw in GPUS:
        e = fit_errors[hw]
        out.append(f"- {hw}: `{{impl: operators, {fitted[hw]}}}`; fit error {e['fit']}% (5-fold held-out "
                   f"{e['held_out']}%) on Llama-2-7B's operators, CPU fit {e['cpu']}%, all-reduce fit {e['link']}%; predicted "
                   f"Llama-2-70B operators (TP 1-8, not fitted): {e['70b']}%" +
                   (f"; attention fit on Llama-2-70B's TP2 FlashAttention kernels {e['attention']}"
                    if "attention" in e else "; attention coefficients the A100's (not fitted on this GPU)"))
    out += ["", "## Predicted Llama-2-70B prompt and token times against Splitwise's measurements", "",
            "Errors |predicted / measured - 1|: mean, median and max over the configurations.", "",
            "| GPU | TP | points | " + " | ".join(f"{v}: prompt; token" for v in variants) + " |",
            "|---|---|---|" + "---|" * len(variants)]
    keys = sorted({(r["hardware"], r["tp"]) for r in rows}) + [("all", 0)]
    for hw, tp in keys:
        sel = [r for r in rows if hw == "all" or (r["hardware"], r["tp"]) == (hw, tp)]
        cells = []
        for v in variants:
            p, t = error(sel, v, "prompt"), error(sel, v, "token")
            ran = sum(r[f"{v}_prompt_ms"] != "" for r in sel)
            if hw == "all" and 0 < ran < len(sel):  # its rows are all in one line above
                cells.append(f"its {ran} points above")
                continue
            cells.append("not run" if p is None else
                         f"{p[0]:.0f}%, {p[1]:.0f}%, {p[2]:.0f}%; {t[0]:.0f}%, {t[1]:.0f}%, {t[2]:.0f}%")
        out.append(f"| {hw} | {tp or 'all'} | {len(sel)} | " + " | ".join(cells) + " |")
    if dropped:
        out += ["", "Left out, as no run can be that fast (below the prefill's flop at 100% of peak): " +
                ", ".join(f"{hw} TP{tp} prompt {p} x batch {b}, {t} tokens" for hw, tp, p, b, t in dropped) + "."]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    main()
