#!/usr/bin/env python3
"""Measures what llsim's `operators` iteration model needs, for a model of llsim's catalogue, on
this machine's GPU (or CPU), and writes it in Vidur's profile layout (docs/phases/serve.md,
"Profiling a GPU").

usage: analysis/profile/profile_gpu.py --model NAME --out DIR [--tp 1,2,...] [--device cuda|cpu]
           [--quick] [--dtype bf16|fp16|fp32] [--max-context TOKENS] [--max-kv-gib G] [--workers 2,4,...]

Writes into DIR:
  mlp.csv          one layer's operators against num_tokens, at each --tp degree (one GPU's share);
  attention.csv    prefill chunks against tokens and context, decode batches against sequences and
                   context, with the KV-cache save;
  all_reduce.csv, all_to_all.csv, send_recv.csv
                   collectives between --workers devices of this machine (several GPUs), against
                   bytes; llsim reads all_reduce.csv and send_recv.csv;
  step_check.csv   whole prefill and decode steps under CUDA graphs against the sum of their
                   operators (GPU only);
  provenance.json  the device, driver, CUDA and torch versions, date, command, llsim commit, the
                   kernels and timing used, and what was left out and why.

Every time written is a measurement (medians, with min, max, mean and std beside them); nothing
is fitted here. `llsim calibrate --profile DIR/mlp.csv` fits coefficients from them, and says so.
"""
import argparse
import os
import sys
import time

import torch

import attention_ops
import catalogue
import collectives
import grids
import layer_ops
import provenance
import steps
import timers
import vidur_files

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", required=True, help="a dense model of llsim's catalogue: " + ", ".join(catalogue.MODELS))
    p.add_argument("--out", required=True, help="directory to write the profile into")
    p.add_argument("--tp", default="1", help="tensor-parallel degrees whose per-GPU share to measure (default 1)")
    p.add_argument("--device", choices=("cuda", "cpu"), default="cuda" if torch.cuda.is_available() else "cpu",
                   help="default: cuda where torch sees a GPU, else cpu")
    p.add_argument("--quick", action="store_true", help="a few small points (CI on a CPU; a first look)")
    p.add_argument("--dtype", choices=DTYPES, help="default: bf16 on a GPU, fp32 on a CPU")
    p.add_argument("--max-context", type=int, default=8192, help="longest context of the attention points "
                   "(default 8192; the quick grid's is 32)")
    p.add_argument("--max-kv-gib", type=float, default=8, help="leave out decode points whose one layer's KV "
                   "cache is larger (GiB, default 8)")
    p.add_argument("--workers", help="device counts for the collectives (default: 2, 4 and 8 up to the GPUs "
                   "present; none on a CPU, where the workers are processes talking through gloo)")
    return p.parse_args()


def integers(text, what):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        sys.exit(f"profile_gpu.py: {what} {text!r}: expected whole numbers separated by commas")
    return values


def worker_counts(args, device):
    if args.workers is not None:
        counts = integers(args.workers, "--workers")
        if device.type == "cuda" and max(counts) > torch.cuda.device_count():
            sys.exit(f"profile_gpu.py: --workers {args.workers}: this machine has {torch.cuda.device_count()} GPUs")
        if min(counts) < 2:
            sys.exit("profile_gpu.py: --workers: a collective needs 2 workers at least")
        return counts
    if device.type == "cuda":
        return [n for n in (2, 4, 8) if n <= torch.cuda.device_count()]
    return []


# What a profile directory holds: a run into one that has any of them would mix two profiles.
OUTPUTS = ("mlp.csv", "attention.csv", "all_reduce.csv", "all_to_all.csv", "send_recv.csv", "step_check.csv",
           "provenance.json")


def prepare_out(out):
    """Creates `out`; exits naming the files when it already holds a profile, or when it cannot be made."""
    held = [name for name in OUTPUTS if os.path.exists(os.path.join(out, name))]
    if held:
        sys.exit(f"profile_gpu.py: --out {out} already holds a profile ({', '.join(held)}): give a new or empty "
                 "directory, so that no file of an earlier run is read with this one's")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        sys.exit(f"profile_gpu.py: --out {out}: cannot make the directory: {e.strerror}")


def measure(timer, calls):
    return {name: timers.stats(timer.milliseconds(fn)) for name, fn in calls.items()}


def profile_shard(shard, grid, timer, dtype, device, max_kv_B, results):
    """Measures one tensor-parallel degree's operators and attention into `results` (and its
    steps on a GPU); returns the decode points left out for their KV cache's size."""
    tp, started = shard.tp, time.time()
    weights = layer_ops.LayerWeights(shard, dtype, device)
    for tokens in grid.tokens:
        results["mlp"][(tp, tokens)] = measure(timer, layer_ops.layer_operators(weights, tokens))
    for chunk, context in grids.prefill_points(grid):
        results["attention"][(tp, "prefill", chunk, context)] = measure(
            timer, attention_ops.prefill(shard, chunk, context, dtype, device))
    too_large = []
    element_B = torch.finfo(dtype).bits // 8
    for batch in grid.decode_batches:
        for context in grid.decode_contexts:
            if attention_ops.decode_kv_bytes(shard, batch, context, element_B) > max_kv_B:
                too_large.append({"tp": tp, "batch_size": batch, "kv_cache_size": context})
                continue
            results["attention"][(tp, "decode", batch, context)] = measure(
                timer, attention_ops.decode(shard, batch, context, dtype, device))
    if device.type == "cuda":
        rows, failed = steps.check(weights, grid, results["mlp"], results["attention"], timer)
        results["steps"] += rows
        results["failed_steps"] += failed
    print(f"profile_gpu.py: tp {tp} measured in {time.time() - started:.1f} s", file=sys.stderr)
    return too_large


def profile_collectives(args, counts, model, grid, device, dtype, timer, files, left_out):
    """Measures the collectives between `counts` devices and writes their files."""
    if not counts:
        left_out["all_reduce.csv, all_to_all.csv, send_recv.csv"] = (
            "one GPU: collectives need several" if device.type == "cuda"
            else "on a CPU only with --workers (processes talking through gloo)")
        return
    # The activations of each token count of the grid: what a tensor-parallel all-reduce moves.
    sizes = sorted({t * model.d_model * torch.finfo(dtype).bits // 8 for t in grid.tokens})
    rows = collectives.measure(counts, sizes, device.type == "cuda", dtype, timer.warmups, timer.samples)
    devices = torch.cuda.device_count() if device.type == "cuda" else max(counts)
    for name in ("all_reduce", "all_to_all", "send_recv"):
        if any(r["collective"] == name for r in rows):
            files[f"{name}.csv"] = vidur_files.write_collective(args.out, name, rows, devices)
    if "send_recv.csv" not in files:
        left_out["send_recv.csv"] = "measured between 2 workers only, and --workers has no 2"


def write_steps(args, device, step_rows, files, left_out):
    """step_check.csv on a GPU, with the range of its ratios on stderr."""
    if device.type != "cuda":
        left_out["step_check.csv"] = "whole steps are measured under CUDA graphs, which need a GPU"
        return
    files["step_check.csv"] = vidur_files.write_steps(args.out, step_rows)
    ratios = [r["sum_over_step"] for r in step_rows]
    if ratios:
        print(f"profile_gpu.py: the sum of the operators over the whole step under a CUDA graph: "
              f"{min(ratios):.3f} to {max(ratios):.3f} (step_check.csv)", file=sys.stderr)


def main():
    args = parse_args()
    started = time.time()
    try:
        model = catalogue.find(args.model)
        shards = [catalogue.shard(model, tp) for tp in integers(args.tp, "--tp")]
    except ValueError as e:
        sys.exit(f"profile_gpu.py: {e}")
    if args.max_context < 128:
        sys.exit("profile_gpu.py: --max-context: 128 tokens at least (the shortest decode context measured)")
    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("profile_gpu.py: --device cuda: torch sees no CUDA GPU here (--device cpu measures the CPU)")
    device = torch.device("cuda", 0) if args.device == "cuda" else torch.device("cpu")
    dtype = DTYPES[args.dtype or ("bf16" if device.type == "cuda" else "fp32")]
    grid = grids.QUICK if args.quick else grids.full(args.max_context)
    timer = timers.make_timer(device, args.quick)
    counts = worker_counts(args, device)
    prepare_out(args.out)
    torch.manual_seed(0)

    results = {"mlp": {}, "attention": {}, "steps": [], "failed_steps": []}
    too_large = []
    for shard in shards:
        too_large += profile_shard(shard, grid, timer, dtype, device, args.max_kv_gib * 2**30, results)
        if device.type == "cuda":
            torch.cuda.empty_cache()
    files = {"mlp.csv": vidur_files.write_mlp(args.out, model, layer_ops.OPERATORS, results["mlp"]),
             "attention.csv": vidur_files.write_attention(args.out, model, results["attention"], grid.max_context,
                                                          attention_ops.BACKEND, timer.name)}
    left_out = {
        "cpu_overheads.csv": "vLLM's scheduling, input preparation and sampling on the CPU need vLLM itself; "
                             "llsim keeps its cpu_per_iteration and cpu_per_sequence",
        "final norm and LM head": "not in Vidur's mlp.csv; llsim keeps their rooflines",
    }
    if too_large:
        left_out["decode points"] = {"why": f"one layer's KV cache over --max-kv-gib {args.max_kv_gib}",
                                     "points": too_large}
    profile_collectives(args, counts, model, grid, device, dtype, timer, files, left_out)
    write_steps(args, device, results["steps"], files, left_out)
    if results["failed_steps"]:
        left_out["whole steps that failed"] = results["failed_steps"]

    record = provenance.write(args.out, {
        "what": "operator, attention, collective and whole-step times measured on this device, in Vidur's "
                "profile layout; every figure is a measurement, none is fitted",
        "model": vars(model), "tensor_parallel": [s.tp for s in shards], "dtype": str(dtype).replace("torch.", ""),
        "device": provenance.device_facts(device), "quick": args.quick,
        "timing": {"method": timer.method, "warmups": timer.warmups, "samples": timer.samples,
                   "collectives": collectives.METHOD,
                   "llsim reads": "the median of each point (ms); min, max, mean and std stand beside it"},
        "kernels": dict(layer_ops.KERNELS, attention=attention_ops.KERNEL),
        "files": files, "left_out": left_out, "seconds": round(time.time() - started, 1)})
    print(f"profile_gpu.py: wrote {', '.join(files)} and provenance.json to {args.out} "
          f"in {record['seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
