"""The serve phase through llsim: closed forms (a request alone against the roofline, Little's
law), the batching and SLO parameters, the workload options, and that every declared parameter
changes a result."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir

SINGLE = "tests/inputs/serve_single.yaml"

# LLaMA3-70B (preset) on 8 x A800, roofline defaults mfu 0.5, hbm_efficiency 0.8.
P, LAYERS, D, KV = 70.6e9, 80, 8192, 2 * 80 * 8 * 128 * 2
FLOPS, HBM = 8 * 312e12 * 0.5, 8 * 2.04e12 * 0.8


def roofline(flop, bytes_):
    return max(flop / FLOPS, bytes_ / HBM)


def prefill_s(n):
    return roofline(2 * P * n + 4 * LAYERS * D * n * (n + 1) / 2, 2 * P + KV * n)


def decode_s(context):
    return roofline(2 * P + 4 * LAYERS * D * (context + 1), 2 * P + KV * (context + 1))


def single(*sets):
    return phase_metrics(SINGLE, "chat", *sets)


# llsim models lists the presets with their derived KV bytes per token (docs/phases/serve.md).
_, listing, _ = run("models")
check("llama2-7b" in listing and "-> 524288 B of KV per token" in listing, "models: Llama-2-7B's 0.5 MiB per token")
check("llama3-70b" in listing and "-> 327680 B of KV per token" in listing, "models: LLaMA3-70B's 320 KiB per token")

# A request alone: TTFT = prefill time; every gap = a decode at batch 1 (within 2%).
m = single()
check_close(m["mean_ttft_s"], prefill_s(4000), 0.02, "TTFT alone = roofline prefill of 4,000 tokens")
mean_gap = sum(decode_s(4000 + k) for k in range(49)) / 49
check_close(m["mean_slo_tbt_s"], mean_gap, 0.02, "TBT alone = roofline decode at batch 1 (tail mean)")
check(m["completed"] == 1 and m["slo_attainment"] == 1, "the request completes within its SLO")
# Each statistic exactly: gap k is the decode at context 4000 + k; the tail mean averages the
# longest ceil(10% of 49) = 5 gaps, the last ones.
gaps = [decode_s(4000 + k) for k in range(49)]
for statistic, expected in [("tail_mean", sum(gaps[-5:]) / 5), ("mean", sum(gaps) / 49), ("max", gaps[-1])]:
    check_close(single(f"phases.chat.slo.tbt_statistic={statistic}")["mean_slo_tbt_s"], expected, 1e-9,
                f"TBT statistic {statistic} of a request alone")
check_close(single("phases.chat.iteration.mfu=0.25")["mean_ttft_s"], 2 * prefill_s(4000), 0.02,
            "half the MFU doubles the compute-bound prefill")
check_close(single("phases.chat.iteration.hbm_efficiency=0.4")["mean_slo_tbt_s"], 2 * mean_gap, 0.02,
            "half the HBM efficiency doubles the memory-bound decode")
check_close(single("phases.chat.iteration.overhead=5ms")["mean_slo_tbt_s"], mean_gap + 0.005, 0.02,
            "a per-iteration overhead adds to every gap")
check_close(single("platform.groups.gpu.gpu.count=4")["mean_ttft_s"], 2 * prefill_s(4000), 0.02,
            "half the GPUs per instance double the prefill")

# Chunked prefill splits the prompt into iterations; a compute-bound prefill costs the same flops
# in chunks, so TTFT is unchanged (the weights read per chunk are hidden under the compute).
chunked = single("phases.chat.batching.scheduler=v1")
check_close(chunked["mean_ttft_s"], m["mean_ttft_s"], 1e-9, f"chunks of 512: TTFT {chunked['mean_ttft_s']:.4f} s")
# Memory-bound chunks (at 1/20 of the HBM bandwidth the weights dominate) pay the weights per chunk.
slow_hbm = ["phases.chat.iteration.hbm_efficiency=0.04"]
chunks_of_256 = single("phases.chat.batching.scheduler=v1", "phases.chat.batching.prefill_chunk=256", *slow_hbm)
check(chunks_of_256["mean_ttft_s"] > 2 * single(*slow_hbm)["mean_ttft_s"],
      "memory-bound chunks of 256 read the weights 16 times")
check(single("phases.chat.slo.ttft=0.2s")["slo_attainment"] == 0, "a TTFT limit below the prefill fails the SLO")
check(single("phases.chat.slo.tbt=5ms")["slo_attainment"] == 0, "a TBT limit below a decode fails the SLO")

# Little's law at low load: Poisson arrivals, fixed lengths, least-loaded router over 4 instances.
out = scratch_dir()
little = ["phases.chat.workload.requests=2000", "phases.chat.workload.arrival={dist: exponential, mean: 0.5s}",
          "phases.chat.workload.input_tokens=1000", "phases.chat.workload.output_tokens=100",
          "platform.groups.gpu.count=4", "phases.chat.batching.scheduler=v1"]
run("run", SINGLE, "--quiet", "--out", out, *sum([["--set", s] for s in little], []))
from harness import summary  # noqa: E402
s = summary(out)["phases"]["chat"]
span = s["end_s"] - s["start_s"]
with open(os.path.join(out, "chat_requests.csv")) as f:
    rows = list(csv.DictReader(f))
w = sum(float(r["finish_s"]) - float(r["arrival_s"]) for r in rows) / len(rows)
lam = len(rows) / span
check_close(s["mean_concurrency"], lam * w, 0.03,
            f"Little's law: L from the instances' batches {s['mean_concurrency']:.3f} vs lambda x W {lam * w:.3f}")
busy = {r["instance"] for r in rows}
check(len(busy) == 4, "the least-loaded router uses every instance")


# A random (Poisson) load is reproducible: the same seed gives the same bytes, another seed not.
def without_wall_time(out_dir):
    whole = summary(out_dir)
    whole.pop("wall_time_s")
    return whole


again, other = scratch_dir(), scratch_dir()
run("run", SINGLE, "--quiet", "--out", again, *sum([["--set", s] for s in little], []))
run("run", SINGLE, "--quiet", "--out", other, "--seed", "2", *sum([["--set", s] for s in little], []))
check(without_wall_time(again) == without_wall_time(out) and
      open(os.path.join(again, "chat_requests.csv")).read() == open(os.path.join(out, "chat_requests.csv")).read(),
      "the same seed repeats a Poisson load exactly")
check(summary(other)["phases"]["chat"]["mean_ttft_s"] != s["mean_ttft_s"], "another seed draws other arrivals")

# <phase>_instances.csv: busy_share is per row's period. Two requests 3 s apart on one instance:
# every row is fully busy but the first after the idle gap.
d = scratch_dir()
run("run", SINGLE, "--quiet", "--out", d, "--set", "phases.chat.sample_period=0.1s",
    "--set", "phases.chat.workload.requests=2", "--set", "phases.chat.workload.arrival=3s")
with open(os.path.join(d, "chat_instances.csv")) as f:
    rows = [(float(r["time_s"]), float(r["busy_share"])) for r in csv.DictReader(f)]
after_gap = [k for k in range(1, len(rows)) if rows[k][0] - rows[k - 1][0] > 1]
check(len(after_gap) == 1 and rows[after_gap[0]][1] < 0.5 and
      all(abs(share - 1) < 1e-9 for k, (_, share) in enumerate(rows) if k != after_gap[0]),
      f"busy_share per period: {rows}")

# The table iteration model interpolates: a 4,000-token prompt between the 1,000 and 8,000 rows;
# a decode of context c at 0.012 + 1e-7 c.
tab = single("phases.chat.iteration={impl: table, file: serve_iteration_table.csv}")
check_close(tab["mean_ttft_s"], 0.1 + 0.8 * 3000 / 7000, 1e-6, "table: interpolated prefill")
check_close(tab["mean_slo_tbt_s"], 0.012 + 1e-7 * (4000 + 49), 0.01, "table: interpolated decode")
# The table iteration model needs neither the GPUs' flops nor hbm_bandwidth, the roofline both.
# Without them a table's times are the same; only the utilisations at those peaks cannot be told,
# and count the busy time (gpu_busy_share).
bare_gpu = "platform.groups.gpu.gpu={hbm: 80GB, count: 8}"
bare_tab = single("phases.chat.iteration={impl: table, file: serve_iteration_table.csv}", bare_gpu)
PEAK_SHARES = ("gpu_utilization", "gpu_hbm_utilization")
check({k: v for k, v in bare_tab.items() if k not in PEAK_SHARES} ==
      {k: v for k, v in tab.items() if k not in PEAK_SHARES},
      "table: the same results without gpu flops and hbm_bandwidth")
check(all(bare_tab[k] == bare_tab["gpu_busy_share"] > tab[k] for k in PEAK_SHARES),
      f"table without the GPU's peaks: the utilisations are the busy share ({bare_tab}, with them {tab})")
_, _, err = run("run", SINGLE, "--set", bare_gpu, "--out", os.path.join(scratch_dir(), "o"), expect=2)
check("the roofline needs the GPUs' flops and hbm_bandwidth (give both in platform.groups.gpu.gpu" in err
      and "serve_single.yaml:" in err, f"roofline without flops: {err.strip()}")

# The model's shape: the KV bytes per token and the weights decide the memory-bound decode.
shape = ["phases.chat.model={params: 70.6G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 128}"]
check_close(single(*shape)["mean_slo_tbt_s"], m["mean_slo_tbt_s"], 1e-9, "the preset equals its written shape")
check(single("phases.chat.model={params: 70.6G, layers: 80, d_model: 8192, kv_heads: 64, head_dim: 128}")
      ["mean_slo_tbt_s"] > m["mean_slo_tbt_s"], "more KV heads, more KV read per decode")
check(single("phases.chat.model={params: 70.6G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 512}")
      ["mean_slo_tbt_s"] > m["mean_slo_tbt_s"], "wider heads, more KV read per decode")
check(single("phases.chat.model={params: 70.6G, layers: 80, d_model: 32768, kv_heads: 8, head_dim: 128}")
      ["mean_ttft_s"] > m["mean_ttft_s"], "a wider model, more attention flops in the prefill")
check(single("phases.chat.model={params: 70.6G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 128, "
             "dtype_bytes: 1}")["mean_slo_tbt_s"] < 0.6 * m["mean_slo_tbt_s"], "one-byte weights halve the decode")
check_close(single("phases.chat.model.dtype_bytes=1")["mean_slo_tbt_s"],
            single("phases.chat.model={params: 70.6G, layers: 80, d_model: 8192, kv_heads: 8, head_dim: 128, "
                   "dtype_bytes: 1}")["mean_slo_tbt_s"], 1e-9, "dtype_bytes applies to a preset too")
direct = single("phases.chat.iteration={impl: table, file: serve_iteration_table.csv}",
                "phases.chat.model={params: 70.6G, kv_bytes_per_token: 1MB}",
                "phases.chat.batching.gpu_memory_utilization=0.225")
check(direct["rejected"] == 1, "kv_bytes_per_token sizes the KV: 2.8 GB hold fewer than 4,050 tokens of 1 MB")
check_close(single("platform.groups.gpu.gpu.flops=156TFlops")["mean_ttft_s"], 2 * m["mean_ttft_s"], 0.02,
            "gpu.flops: half the flops, twice the compute-bound prefill")
check_close(single("platform.groups.gpu.gpu.hbm_bandwidth=1.02TBps")["mean_slo_tbt_s"], 2 * m["mean_slo_tbt_s"], 0.02,
            "gpu.hbm_bandwidth: half the bandwidth, twice the memory-bound decode")
check(single("platform.groups.gpu.gpu.hbm=19.7GB")["rejected"] == 1, "gpu.hbm sizes the KV")

# FastDecode, scaled down: 64 requests of 128 tokens out.
FD = "scenarios/paper/fastdecode.yaml"
small = ["phases.vllm.workload.requests=64", "phases.fastdecode.workload.requests=64",
         "phases.vllm.workload.output_tokens=128", "phases.fastdecode.workload.output_tokens=128"]


def fd(*sets):
    return phase_metrics(FD, "fastdecode", *small, *sets)


f0 = fd()
check(f0["completed"] == 64 and f0["kv_bytes_transferred"] > 0, "fastdecode completes and moves queries and KV")
check(fd("phases.fastdecode.system.memory_efficiency=0.35")["tokens_per_s"] < f0["tokens_per_s"],
      "memory_efficiency: a slower R-part")
check(fd("phases.fastdecode.system.pipelined=false")["tokens_per_s"] < f0["tokens_per_s"], "pipelined=false: S + R")
check(fd("phases.fastdecode.system.kv_memory_share=0.001")["preemptions"] > 0, "kv_memory_share bounds the KV")
_, _, err = run("run", FD, "--out", os.path.join(scratch_dir(), "o"),
                "--set", "phases.fastdecode.batching.gpu_memory_utilization=0.3", expect=2)
check("phases[1].system.gpu: the weights (13.5 GB) do not fit in 1 x 24 GB of HBM x gpu_memory_utilization 0.3 "
      "on group 'a10_fd'" in err, f"FastDecode's weights that do not fit, with the figures: {err.strip()}")
check(fd("platform.groups.epyc.memory_bandwidth=200GBps")["tokens_per_s"] < f0["tokens_per_s"],
      "memory_bandwidth of the CPU group")
check(fd("platform.groups.epyc.count=1")["tokens_per_s"] < f0["tokens_per_s"], "one R-worker instead of four, slower")
check(fd("platform.groups.epyc.nic.bandwidth=100MBps")["tokens_per_s"] < f0["tokens_per_s"],
      "the network carries the queries and results")

finish()
