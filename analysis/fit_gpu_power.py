#!/usr/bin/env python3
"""Calibrate, then predict: GPU power against utilisation (docs/results/gpu_power.md).

usage: analysis/fit_gpu_power.py [--data traces/calibration/splitwise/perf_model.csv] [--out FILE]

llsim's energy accounting draws, per GPU, idle + (tdp - idle) x utilisation, with utilisation the
share of an iteration's time the busier of compute and HBM bandwidth would need at the GPU's peaks
(sim/serve/cost/gpu_load.hpp). In units of TDP that is

    power / tdp = a + (1 - a) x utilisation,   a = idle / tdp,

one parameter. Splitwise measured the average power of Llama-2-70B and BLOOM-176B serving on
DGX-A100 (normalised to TDP; prompt and token phases together) with their prompt and per-token
times. For each configuration this script computes llsim's utilisation from the model's shape,
the A100's datasheet peaks and the measured times, weighted by the time of each phase:

    prefill  flop = 2 P B N + 4 L W B N(N+1)/2,   bytes = weights + kv B N   over the prompt time
    decode   flop = 2 P B + 4 L W B c,            bytes = weights + kv B c   per token time
             (c = N + T/2: the mean context while T tokens are generated)

(P params, L layers, W attention width, kv the KV bytes per token, B batch, N prompt tokens;
the formulas of sim/serve/cost/batch_cost.hpp). It fits `a` by least squares to Llama-2-70B at TP 2
and 8, then predicts, with `a` unchanged, Llama-2-70B at TP 4 and BLOOM-176B at TP 8, which the
fit never saw. Rows with average power 0 (not measured) are left out, and so are prompts of 8192
tokens: their average power is 0.17-0.18 of TDP at every TP degree and batch while their peak is
1.0, unlike every other prompt size (a logging gap, we take it).

Prints the fitted `a`, the implied idle watts of a 400 W A100 (the a100-80gb-sxm preset's `idle`
carries it, labelled fitted) and the error tables; --out writes them as markdown.
"""
import argparse
import csv
import sys
from collections import defaultdict

TDP_W = 400.0  # A100 SXM datasheet
PEAK_FLOPS = 312e12  # A100 datasheet, BF16 dense
PEAK_HBM_BPS = 2039e9  # A100 80GB SXM datasheet
DTYPE_BYTES = 2

# name -> (params, layers, d_model, kv heads, head dim, heads); Llama-2-70B as llsim's preset,
# BLOOM-176B from its config.json (multi-head attention: 112 KV heads).
MODELS = {
    "llama2-70b": (69.0e9, 80, 8192, 8, 128, 64),
    "bloom-176b": (176.2e9, 70, 14336, 112, 128, 112),
}
FIT = {("llama2-70b", 2), ("llama2-70b", 8)}
HELD_OUT = {("llama2-70b", 4), ("bloom-176b", 8)}
LEFT_OUT_PROMPT = 8192


def utilisation(model, tp, prompt, batch, tokens, prompt_s, token_s):
    params, layers, d_model, kv_heads, head_dim, heads = MODELS[model]
    width = heads * head_dim
    weights = params * DTYPE_BYTES
    kv = 2.0 * layers * kv_heads * head_dim * DTYPE_BYTES
    flops, hbm = tp * PEAK_FLOPS, tp * PEAK_HBM_BPS

    def busy_share(flop, nbytes, seconds):
        return min(1.0, max(flop / flops, nbytes / hbm) / seconds)

    pairs = batch * prompt * (prompt + 1) / 2
    u_prefill = busy_share(2 * params * batch * prompt + 4 * layers * width * pairs, weights + kv * batch * prompt,
                           prompt_s)
    context = prompt + tokens / 2
    u_decode = busy_share(2 * params * batch + 4 * layers * width * batch * context, weights + kv * batch * context,
                          token_s)
    decode_s = tokens * token_s
    return (prompt_s * u_prefill + decode_s * u_decode) / (prompt_s + decode_s)


def read_configurations(path):
    """Mean measured power and times per (model, tp, prompt, batch, tokens) on the A100."""
    groups = defaultdict(list)
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            try:
                if row["hardware"] != "a100-80gb" or row["model"] not in MODELS:
                    continue
                power = float(row["average_power"])
                key = (row["model"], int(row["tensor_parallel"]), int(row["prompt_size"]), int(row["batch_size"]),
                       int(row["token_size"]))
                groups[key].append((power, float(row["prompt_time"]) / 1e3, float(row["token_time"]) / 1e3))
            except (KeyError, ValueError) as e:
                sys.exit(f"{path}:{line}: expected Splitwise's perf_model columns with numbers ({e})")
    out = []
    for key, rows in sorted(groups.items()):
        power = sum(r[0] for r in rows) / len(rows)
        if power <= 0 or key[2] == LEFT_OUT_PROMPT:
            continue
        u = utilisation(*key, sum(r[1] for r in rows) / len(rows), sum(r[2] for r in rows) / len(rows))
        out.append((key, power, u))
    return out


def fit_idle_share(points):
    """Least squares of power - u = a (1 - u)."""
    num = sum((1 - u) * (p - u) for _, p, u in points)
    den = sum((1 - u) ** 2 for _, p, u in points)
    return num / den


def table(title, points, a):
    lines = [f"### {title}", "", "| model | TP | prompt | batch | tokens | utilisation | measured | predicted | error |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    errors = []
    for (model, tp, prompt, batch, tokens), p, u in points:
        predicted = a + (1 - a) * u
        errors.append((predicted - p) / p)
        lines.append(f"| {model} | {tp} | {prompt} | {batch} | {tokens} | {u:.3f} | {p:.3f} | {predicted:.3f} | "
                     f"{100 * errors[-1]:+.1f}% |")
    mean_abs = sum(abs(e) for e in errors) / len(errors)
    lines += ["", f"{len(errors)} configurations; mean absolute error {100 * mean_abs:.1f}%, "
              f"worst {100 * max(errors, key=abs):+.1f}%.", ""]
    return lines, mean_abs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="traces/calibration/splitwise/perf_model.csv")
    ap.add_argument("--out", help="write the tables as markdown here")
    args = ap.parse_args()
    points = read_configurations(args.data)
    fit = [pt for pt in points if (pt[0][0], pt[0][1]) in FIT]
    held = [pt for pt in points if (pt[0][0], pt[0][1]) in HELD_OUT]
    if not fit or not held:
        sys.exit(f"{args.data}: no A100 rows of {sorted(FIT | HELD_OUT)}")
    a = fit_idle_share(fit)
    lines = [f"fitted a = idle / tdp = {a:.4f} (idle {a * TDP_W:.1f} W of a {TDP_W:.0f} W A100)", ""]
    fit_lines, fit_err = table("Fitted: Llama-2-70B, TP 2 and 8", fit, a)
    held_lines, held_err = table("Held out: Llama-2-70B TP 4, BLOOM-176B TP 8", held, a)
    lines += fit_lines + held_lines
    at_tdp = sum(abs(1 - p) / p for _, p, _ in held) / len(held)
    lines.append(f"summary: a {a:.4f}, fit mean |error| {100 * fit_err:.1f}%, held-out mean |error| "
                 f"{100 * held_err:.1f}% (GPUs at TDP whenever busy: {100 * at_tdp:.0f}%)")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
