"""The serve phase through llsim: closed forms (a request alone against the roofline, Little's
law), the batching and SLO parameters, the workload options, and that every declared parameter
changes a result."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir

SINGLE = "tests/scenarios/serve_single.yaml"

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


# A request alone: TTFT = prefill time; every gap = a decode at batch 1 (within 2%).
m = single()
check_close(m["mean_ttft_s"], prefill_s(4000), 0.02, "TTFT alone = roofline prefill of 4,000 tokens")
mean_gap = sum(decode_s(4000 + k) for k in range(49)) / 49
check_close(m["mean_tbt_s"], mean_gap, 0.02, "TBT alone = roofline decode at batch 1 (tail mean)")
check(m["completed"] == 1 and m["slo_attainment"] == 1, "the request completes within its SLO")
check_close(single("phases.chat.iteration.mfu=0.25")["mean_ttft_s"], 2 * prefill_s(4000), 0.02,
            "half the MFU doubles the compute-bound prefill")
check_close(single("phases.chat.iteration.hbm_efficiency=0.4")["mean_tbt_s"], 2 * mean_gap, 0.02,
            "half the HBM efficiency doubles the memory-bound decode")
check_close(single("phases.chat.iteration.overhead=5ms")["mean_tbt_s"], mean_gap + 0.005, 0.02,
            "a per-iteration overhead adds to every gap")
check_close(single("platform.groups.gpu.gpu.count=4")["mean_ttft_s"], 2 * prefill_s(4000), 0.02,
            "half the GPUs per instance double the prefill")

# Chunked prefill splits the prompt into iterations: the same compute plus the weights read per
# chunk, so TTFT grows a little; the SLO judges it.
chunked = single("phases.chat.batching.prefill_chunk=512")
check(chunked["mean_ttft_s"] > m["mean_ttft_s"], f"chunks of 512: TTFT {chunked['mean_ttft_s']:.3f} s")
check(single("phases.chat.slo.ttft=0.2s")["slo_attainment"] == 0, "a TTFT limit below the prefill fails the SLO")
check(single("phases.chat.slo.tbt=5ms")["slo_attainment"] == 0, "a TBT limit below a decode fails the SLO")

# Little's law at low load: Poisson arrivals, fixed lengths, least-loaded router over 4 instances.
out = scratch_dir()
little = ["phases.chat.workload.requests=2000", "phases.chat.workload.arrival={dist: exponential, mean: 0.5s}",
          "phases.chat.workload.input_tokens=1000", "phases.chat.workload.output_tokens=100",
          "platform.groups.gpu.count=4", "phases.chat.batching.prefill_chunk=512"]
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

finish()
