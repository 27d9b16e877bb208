"""The `dlio_checkpoint` phase kind (issue 42, MLPerf Storage's checkpoint workload) against closed
forms, on llama3-8b (ZeRO-3, 8 ranks) from one client to one server of 8 disks of 2 GB/s:

- the checkpoint's size is DLIO's: the parameters counted from the shape x 14 B, plus 60 B per
  hidden unit per rank, and the presets give MLPerf Storage's published sizes within 0.02%;
- a save is limited by the ranks (8 x process_bandwidth), by the disks (16 GB/s) or by the
  client's NIC, whichever is least: size / that rate within 3%; a load by the disks' read rate;
- ZeRO-1 makes data-parallel replica 0 write the weights: rank 0 holds 2 + 12/8 B per parameter
  and, each rank at its process_bandwidth, the save takes rank 0's bytes / process_bandwidth;
- every key changes the run: the shape's figures, tensor, pipeline, saves, loads, request,
  read_ahead, stripe_count, forwarding;
- a DLIO checkpoint workload file read unchanged (config:) gives the preset's checkpoint, its
  saves and loads, and the phase's keys override it (broken files: tests/bad/dlio_checkpoint/);
- bad figures are errors at their line, blaming the key given (or the workload, for its preset's
  figures); too many requests are refused; a client's failure ends the run with an error.
"""
import os

from harness import check, check_close, finish, phase_metrics, run, run_fails, run_out, scratch_dir, summary

SCENARIO = "tests/inputs/dlio_checkpoint.yaml"
P = "phases.ckpt."


def params(layers, hidden, ffn, vocab, heads, kv_heads):
    """DLIO's count of a Llama-shaped model's parameters (dlio_checkpoint_workload.hpp)."""
    kv_dim = kv_heads * (hidden // heads)
    return 2 * vocab * hidden + layers * (2 * hidden + 2 * hidden * hidden + 2 * hidden * kv_dim + 3 * hidden * ffn) + hidden


P8B = params(32, 4096, 14336, 128256, 32, 8)
RANK_BPS = 1e9  # process_bandwidth's default (fitted, docs/validation.md)
SIZE = P8B * 14 + 60 * 4096 * 8

m = phase_metrics(SCENARIO, "ckpt")
if m:
    check_close(m["checkpoint_bytes"], SIZE, 1e-9, "size = params x 14 B + 60 B x hidden per rank")
    check_close(m["checkpoint_GiB"], 104.70, 2e-4, "llama3-8b as MLPerf Storage publishes it (104.70 GiB)")
    check_close(m["save_s"], SIZE / (8 * RANK_BPS), 0.03, "rank-bound save: 8 ranks at the default 1 GB/s")
    check_close(m["save_GiBps"], SIZE / m["save_s"] / 2**30, 1e-9, "save throughput = size / duration in GiB/s")
    check(m["saves"] == 1 and m["loads"] == 1 and m["processes"] == 8 and m["data_parallel"] == 8,
          f"one save, one load, 8 ranks of data parallelism: {m}")

# The published sizes of the four presets, each on its own ranks (one host each).
for workload, ranks, published in (("llama3-70b", 64, 911.21), ("llama3-405b", 512, 5292.25),
                                   ("llama3-1t", 1024, 15426.59)):
    m = phase_metrics(SCENARIO, "ckpt", f"{P}workload={workload}", f"{P}processes={ranks}", f"{P}saves=0")
    if m:
        check_close(m["checkpoint_GiB"], published, 2e-4, f"{workload}: MLPerf Storage's {published} GiB")

FAST = [f"{P}process_bandwidth=10GBps"]
m = phase_metrics(SCENARIO, "ckpt", *FAST)
if m:
    check_close(m["save_s"], SIZE / 16e9, 0.03, "disk-bound save: 8 disks at 2 GB/s")
m = phase_metrics(SCENARIO, "ckpt", *FAST, "platform.groups.clients.nic.bandwidth=4GBps")
if m:
    check_close(m["save_s"], SIZE / 4e9, 0.03, "NIC-bound save: the client's 4 GB/s")
    check_close(m["load_s"], SIZE / 4e9, 0.03, "NIC-bound load: the client's 4 GB/s")
m = phase_metrics(SCENARIO, "ckpt", *FAST, "platform.groups.storage.disks.read=1GBps")
if m:
    check_close(m["load_s"], SIZE / 8e9, 0.03, "disk-bound load: 8 disks reading at 1 GB/s")

# ZeRO-1 on 2 hosts of 4 ranks: rank 0 writes the weights (2 B) and its 1/8 of the rest.
m = phase_metrics(SCENARIO, "ckpt", f"{P}zero_stage=1", "platform.groups.clients.count=2")
if m:
    rank0 = P8B * (2 + 12 / 8) + 60 * 4096
    check_close(m["largest_rank_bytes"], rank0, 1e-6, "ZeRO-1: rank 0 holds 2 + 12/8 B per parameter")
    check_close(m["save_s"], rank0 / RANK_BPS, 0.03, "ZeRO-1: the save lasts rank 0's bytes at 1 GB/s")
    check_close(m["checkpoint_bytes"], SIZE, 1e-9, "ZeRO-1: the same checkpoint size")

# Every key changes the run.
base = phase_metrics(SCENARIO, "ckpt", *FAST)
for key, value, metric in (("num_layers", 16, "checkpoint_bytes"), ("hidden_size", 2048, "checkpoint_bytes"),
                           ("ffn_hidden_size", 7168, "checkpoint_bytes"), ("vocab_size", 32000, "checkpoint_bytes"),
                           ("num_attention_heads", 64, "checkpoint_bytes"), ("num_kv_heads", 32, "checkpoint_bytes"),
                           ("tensor", 2, "data_parallel"), ("pipeline", 4, "data_parallel"),
                           ("saves", 3, "saves"), ("loads", 2, "loads"), ("request", "4GiB", "save_s"),
                           ("stripe_count", 1, "save_s"), ("zero_stage", 0, "largest_rank_bytes")):
    m = phase_metrics(SCENARIO, "ckpt", *FAST, f"{P}{key}={value}")
    if m and base:
        check(m[metric] != base[metric], f"{key}={value} changes {metric}: {m[metric]} vs {base[metric]}")
# read_ahead: a load of small requests over a slow route keeps more of them in flight.
SLOW = [*FAST, f"{P}request=16MiB", "platform.backbone.latency=5ms"]
one, four = (phase_metrics(SCENARIO, "ckpt", *SLOW, f"{P}read_ahead={n}") for n in (1, 4))
if one and four:
    check(one["load_s"] > 1.5 * four["load_s"], f"read_ahead 1 loads slower than 4: {one['load_s']} vs {four['load_s']}")
# process_bandwidth is the rank-bound case above; forwarding: through one forwarding node of 2 GB/s.
FWD = ["platform.groups.fwd={count: 1, nic: {bandwidth: 2GBps, latency: 1us}}",
       "services.fwd={kind: forwarding, servers: fwd, backend: fs, threads: 16, mapping: static, ratio: 1}",
       f"{P}forwarding=fwd"]
m = phase_metrics(SCENARIO, "ckpt", *FAST, *FWD)
if m:
    check_close(m["save_s"], SIZE / 2e9, 0.05, "through one forwarding node of 2 GB/s")

# MLPerf's llama3-8b checkpoint file, unchanged (data 1 on 8 ranks: as in DLIO, the ranks decide
# the data-parallel degree; 10 saves and 10 loads), runs as the preset does; the phase's keys
# override the file; resolved.yaml shows the file's figures.
CONFIG = "tests/inputs/dlio_checkpoint_config.yaml"
preset = phase_metrics(SCENARIO, "ckpt", f"{P}saves=10", f"{P}loads=10")
out = run_out(CONFIG)
from_file = summary(out)["phases"]["ckpt"] if out else None
if preset and from_file:
    for metric in ("checkpoint_bytes", "save_s", "load_s", "saves", "loads", "data_parallel"):
        check(from_file[metric] == preset[metric], f"config: {metric} {from_file[metric]} as the preset's {preset[metric]}")
    check(from_file["saves"] == 10 and from_file["loads"] == 10 and from_file["data_parallel"] == 8,
          f"config: the file's 10 saves and 10 loads, 8 data-parallel ranks: {from_file}")
    with open(os.path.join(out, "resolved.yaml")) as f:
        resolved = f.read()
    check("saves: 10" in resolved and "num_layers: 32" in resolved, "resolved.yaml shows the file's figures")
m = phase_metrics(CONFIG, "ckpt", f"{P}num_layers=16", f"{P}saves=1")
if m and from_file:
    check(m["checkpoint_bytes"] < from_file["checkpoint_bytes"] and m["saves"] == 1,
          f"keys override the file: {m['checkpoint_bytes']} bytes, {m['saves']} saves")
m = phase_metrics(CONFIG, "ckpt", f"{P}config=dlio_checkpoint/llama3_405b.yaml", f"{P}processes=512", f"{P}saves=1",
                  f"{P}loads=0")
if m:
    check_close(m["checkpoint_GiB"], 5292.25, 2e-4, "llama3-405b's file: MLPerf Storage's 5,292.25 GiB")
    check(m["saves"] == 1 and m["loads"] == 0 and m["data_parallel"] == 2, f"405b's file: {m}")

# Bad inputs: errors at their line, no output.
run_fails(SCENARIO, "do not spread evenly", f"{P}processes=7", "platform.groups.clients.count=2")
run_fails(SCENARIO, "whole number of model replicas", f"{P}tensor=3")
run_fails(SCENARIO, "unknown workload", f"{P}workload=llama3-9b")
run_fails(SCENARIO, "pipeline stages", f"{P}pipeline=64", f"{P}processes=64")
run_fails(SCENARIO, "more than the 32", f"{P}num_kv_heads=33")
run_fails(SCENARIO, "nothing to run", f"{P}saves=0", f"{P}loads=0")
run_fails(SCENARIO, "expected", f"{P}zero_stage=4")
run_fails(SCENARIO, "a request of at least", f"{P}request=1KiB")
run_fails(SCENARIO, "but service 'fs' has 8", f"{P}stripe_count=9")
run_fails(SCENARIO, "at most one rank per head", f"{P}tensor=64", f"{P}processes=64")
# A figure that does not fit blames the key given, or the workload when the preset's figure is
# the other side: a 1-layer llama3-405b has too many pipeline stages for its preset.
run_fails(SCENARIO, "phases[0].workload: 32 pipeline stages for 1 layers", f"{P}workload=llama3-405b",
          f"{P}num_layers=1", f"{P}processes=256")
run_fails(SCENARIO, "phases[0].num_attention_heads: 64 heads cannot share a hidden width of 32",
          f"{P}num_attention_heads=64", f"{P}hidden_size=32")

# Run-time errors end the run without output: a checkpoint that does not fit, a client that goes
# down during the save (DLIO's ranks are MPI processes).
for sets, text in ((["platform.groups.storage.disks.capacity=1GB"], "is full"),
                   (["faults=[{group: clients, impl: trace, file: dlio_checkpoint_client_down.csv}]"],
                    "host clients-0 went down at 1 s: DLIO's ranks do not survive a client failure")):
    out = os.path.join(scratch_dir(), "out")
    _, _, err = run("run", SCENARIO, "--out", out, *[a for s in sets for a in ("--set", s)], expect=1)
    check(text in err, f"{sets}: the error says '{text}': {err[-600:]}")
    check(not os.path.exists(out), f"{sets}: a failed run leaves no output")

finish()
