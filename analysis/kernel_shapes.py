#!/usr/bin/env python3
"""Do kernel-shape mechanisms predict Vidur's measured kernels better than the operators model's
smooth curves? Fits each candidate on one part of the shipped measurements and reports its error
on parts it never saw.

usage: /usr/bin/python3 analysis/kernel_shapes.py      (needs python3-numpy and python3-scipy)

1. GEMMs (the QKV, output, up and down projections of mlp.csv, every TP degree): the operators
   model's time, launch + max(2 M K N / (peak x e x M / (M + h)), bytes / (HBM x b)), against
   tiles and waves: cuBLAS picking, per GEMM, the best of six output tiles (64 to 256 square
   and oblong), ceil(M / tm) x ceil(N / tn) tiles running in ceil(tiles / SMs) waves, each tile
   2 tm tn K flop at e of one SM's share of the peak (A100: 108 SMs, H100 SXM: 132). Fitted on
   the A100's Llama-2-7B; held out: the A100's Llama-2-70B, the H100's Llama-2-7B and 70B; and
   refitted on the H100's 7B, its 70B held out.
2. Decode attention (attention.csv, Llama-2-70B's shape at TP2 on the A100): the operators
   model's overhead + max(flop / (peak x e), bytes / (HBM x b)) against the same with an
   occupancy: work units = sequences x KV heads x ceil(context / partition) over the SMs, the
   bandwidth and flops reached scaled by min(1, units / SMs), for partitions of 64 to 1,024
   tokens. Fitted on a random half of the rows (seed 0), held out: the other half.

Errors are mean |predicted / measured - 1| in percent. Prints two tables; writes nothing.
"""
import csv
import os

import numpy as np
from scipy.optimize import least_squares

DATA = "traces/calibration/vidur"
GPUS = {"a100": {"peak": 312e12, "hbm": 2039e9, "sms": 108}, "h100": {"peak": 989.4e12, "hbm": 3.35e12, "sms": 132}}
TILES = [(64, 64), (64, 128), (128, 64), (128, 128), (128, 256), (256, 128)]


def gemm_points(gpu, model):
    """(M, K, N, seconds) of every projection GEMM of one profile."""
    points = []
    with open(os.path.join(DATA, gpu, model, "mlp.csv")) as f:
        for r in csv.DictReader(f):
            tp, m = int(r["num_tensor_parallel_workers"]), int(r["num_tokens"])
            d, heads, kv, ffn = int(r["n_embd"]), int(r["n_head"]), int(r["n_kv_head"]), int(r["n_expanded_embd"])
            head_dim, q = d // heads, d // tp
            shapes = {"attn_pre_proj": (d, q + 2 * max(1, kv // tp) * head_dim), "attn_post_proj": (q, d),
                      "mlp_up_proj": (d, 2 * ffn // tp), "mlp_down_proj": (ffn // tp, d)}
            for op, (k, n) in shapes.items():
                points.append((m, k, n, float(r[f"time_stats.{op}.median"]) * 1e-3))
    return np.array(points)


def smooth(p, x, g):
    e, half, b, launch = p
    m, k, n = x[:, 0], x[:, 1], x[:, 2]
    compute = 2 * m * k * n / (g["peak"] * e * m / (m + half))
    return launch + np.maximum(compute, (k * n + m * k + m * n) * 2 / (g["hbm"] * b))


def waves(p, x, g):
    e, b, launch = p
    m, k, n = x[:, 0], x[:, 1], x[:, 2]
    best = np.full(len(m), np.inf)
    for tm, tn in TILES:
        count = np.ceil(np.ceil(m / tm) * np.ceil(n / tn) / g["sms"])
        best = np.minimum(best, count * 2 * tm * tn * k / (g["peak"] / g["sms"] * e))
    return launch + np.maximum(best, (k * n + m * k + m * n) * 2 / (g["hbm"] * b))


def fit(model, start, x, y, g):
    return least_squares(lambda p: (model(p, x, g) - y) / y, start, bounds=(0, np.inf)).x


def error(model, p, x, y, g):
    return 100 * np.mean(np.abs(model(p, x, g) / y - 1))


def gemm_table():
    data = {(gpu, model): gemm_points(gpu, model) for gpu in GPUS for model in ("llama-2-7b", "llama-2-70b")}
    train = data[("a100", "llama-2-7b")]
    print("| GEMM model | fitted: A100 7B | A100 70B | H100 7B | H100 70B | refitted on H100 7B: H100 70B |")
    print("|---|---|---|---|---|---|")
    for name, model, start in (("smooth (the operators model)", smooth, [0.7, 100, 0.75, 5e-6]),
                               ("tiles and waves", waves, [0.8, 0.75, 5e-6])):
        p = fit(model, start, train[:, :3], train[:, 3], GPUS["a100"])
        cells = [error(model, p, train[:, :3], train[:, 3], GPUS["a100"])]
        for key in (("a100", "llama-2-70b"), ("h100", "llama-2-7b"), ("h100", "llama-2-70b")):
            cells.append(error(model, p, data[key][:, :3], data[key][:, 3], GPUS[key[0]]))
        h7, h70 = data[("h100", "llama-2-7b")], data[("h100", "llama-2-70b")]
        ph = fit(model, p, h7[:, :3], h7[:, 3], GPUS["h100"])
        cells.append(error(model, ph, h70[:, :3], h70[:, 3], GPUS["h100"]))
        print(f"| {name} | " + " | ".join(f"{c:.1f}%" for c in cells) + " |")


def attention_table():
    with open(os.path.join(DATA, "a100", "llama-2-70b-attention", "attention.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["is_prefill"] == "False"]
    seqs = np.array([float(r["batch_size"]) for r in rows])
    context = np.array([float(r["kv_cache_size"]) for r in rows])
    seconds = np.array([float(r["time_stats.attn_decode.median"]) for r in rows]) * 1e-3
    kv_heads, head_dim, q_width = 8 // 2, 128, 64 // 2 * 128  # Llama-2-70B at TP2
    g = GPUS["a100"]

    def kernel(p, occupancy):
        overhead, b, e = p
        moved = seqs * (context + 1) * 2 * kv_heads * head_dim * 2 + 2 * seqs * q_width * 2
        flop = 4 * q_width * seqs * (context + 1)
        return overhead + np.maximum(flop / (g["peak"] * e * occupancy), moved / (g["hbm"] * b * occupancy))

    order = np.random.default_rng(0).permutation(len(seconds))
    train = np.zeros(len(seconds), bool)
    train[order[: len(seconds) // 2]] = True
    print("\n| decode attention model | fitted half | held-out half | held out, batches of 8 or fewer |")
    print("|---|---|---|---|")
    variants = [("no occupancy (the operators model)", None)] + [(f"occupancy, {s}-token partitions", s)
                                                                  for s in (64, 128, 256, 512, 1024)]
    for name, partition in variants:
        units = seqs * kv_heads * (1 if partition is None else np.ceil((context + 1) / partition))
        occupancy = np.ones(len(seqs)) if partition is None else np.minimum(1, units / g["sms"])
        p = least_squares(lambda p: (kernel(p, occupancy) - seconds)[train] / seconds[train], [15e-6, 0.75, 0.27],
                          bounds=(0, np.inf)).x
        err = 100 * np.abs(kernel(p, occupancy) / seconds - 1)
        print(f"| {name} | {err[train].mean():.1f}% | {err[~train].mean():.1f}% | "
              f"{err[~train & (seqs <= 8)].mean():.1f}% |")


if __name__ == "__main__":
    gemm_table()
    attention_table()
