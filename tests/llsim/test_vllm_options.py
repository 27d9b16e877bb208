"""vLLM's scheduling options in a serve phase's batching, each through llsim: kv_blocks as vLLM's log
prints it (and refused beyond the HBM), activation_reserve taken from the KV, V0's admission
watermark, max_model_len capping outputs and rejecting prompts that reach it, V0's padded token
budget, preemption by swap over PCIe with its swap space. Defaults leave results as they were
(V1: no watermark, no cap, blocks derived, real tokens counted, preemption by recompute)."""
import os

from harness import check, check_close, finish, run, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"
# 20 prompts of 4,000 tokens arriving together, 50 tokens out each.
BURST = ["phases.chat.workload.requests=20", "phases.chat.workload.arrival=0s",
         "phases.chat.workload.output_tokens=50", "phases.chat.batching.scheduler=v1"]


def chat(*sets):
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in (*BURST, *sets):
        args += ["--set", s]
    run(*args)
    return summary(out)["phases"]["chat"]


base = chat()
check(base["completed"] == 20 and base["preemptions"] == 0, "20 requests fit in the derived KV")
# kv_blocks: 20 x 4,050 tokens need 20 x 254 blocks of 16; 1,000 blocks hold 3 requests at a time.
few = chat("phases.chat.batching.kv_blocks=1000")
check(few["completed"] == 20 and few["mean_ttft_s"] > base["mean_ttft_s"],
      f"1,000 KV blocks queue the prompts: TTFT {few['mean_ttft_s']} vs {base['mean_ttft_s']}")
check(chat("phases.chat.batching.kv_blocks=200")["rejected"] == 20, "200 blocks hold no request: all rejected")
_, _, err = run("run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "o"), "--set",
                "phases.chat.batching.kv_blocks=1000000", expect=2)
check("batching.kv_blocks: 1000000 KV blocks of 5.24 MB and the weights (141 GB) exceed the 640 GB of HBM" in err,
      f"more blocks than the HBM holds: {err.strip()}")
# activation_reserve: 8 x 80 GB x 0.9 - 141 GB leaves 435 GB; 53 GB per GPU leaves 11 GB, 2,099 blocks.
reserved = chat("phases.chat.batching.activation_reserve=53GB")
check(reserved["mean_ttft_s"] != base["mean_ttft_s"] or reserved["mean_slo_tbt_s"] != base["mean_slo_tbt_s"],
      f"53 GB per GPU for activations leaves less KV: {reserved['mean_ttft_s']}, {reserved['mean_slo_tbt_s']} vs "
      f"{base['mean_ttft_s']}, {base['mean_slo_tbt_s']}")
same_blocks = chat(f"phases.chat.batching.kv_blocks={int((576e9 - 141.2e9 - 8 * 53e9) // (16 * 327680))}")
check_close(reserved["mean_ttft_s"], same_blocks["mean_ttft_s"], 1e-9,
            "the reserve is as many blocks fewer as its bytes hold")
# watermark: with 1,000 blocks, admission must leave 300 free: 2 requests at a time instead of 3.
marked = chat("phases.chat.batching.kv_blocks=1000", "phases.chat.batching.watermark=0.3")
check(marked["mean_ttft_s"] > few["mean_ttft_s"], f"a watermark admits fewer: {marked['mean_ttft_s']} vs "
      f"{few['mean_ttft_s']}")
check(chat("phases.chat.batching.kv_blocks=300", "phases.chat.batching.watermark=0.2")["rejected"] == 20,
      "a request whose prompt fits only below the watermark is rejected, not left waiting")
long_out = chat("phases.chat.batching.kv_blocks=1000", "phases.chat.batching.watermark=0.5",
                "phases.chat.workload.output_tokens=5000", "phases.chat.workload.requests=1")
check(long_out["completed"] == 1, "as in vLLM V0, only the prompt must clear the watermark: decodes may use it")
# max_model_len: outputs stop at the cap; prompts that reach it are rejected.
capped = chat("phases.chat.batching.max_model_len=4010")
check(capped["completed"] == 20 and capped["tokens_per_s"] < base["tokens_per_s"],
      "max_model_len 4010: 10 tokens out per request instead of 50")
check(chat("phases.chat.batching.max_model_len=4000")["rejected"] == 20, "a 4,000-token prompt reaches 4,000")

# padded_budget (V0 before chunked prefill): a whole-prompt batch counts prompts x its longest.
# Prompts of one length (4,000 tokens) pad to nothing; prompts of 100 to 4,000 tokens do.
WHOLE = ["phases.chat.batching.scheduler=v0"]
same = chat(*WHOLE)
check(chat(*WHOLE, "phases.chat.batching.padded_budget=true")["mean_ttft_s"] == same["mean_ttft_s"],
      "prompts of one length: the padded budget is the real one")
MIXED = [*WHOLE, "phases.chat.workload.input_tokens={dist: uniform, min: 100, max: 4000}"]
unpadded = chat(*MIXED)
padded = chat(*MIXED, "phases.chat.batching.padded_budget=true")
check(padded["mean_ttft_s"] != unpadded["mean_ttft_s"],
      f"prompts of many lengths: smaller padded batches move TTFT: {padded['mean_ttft_s']} vs "
      f"{unpadded['mean_ttft_s']}")
_, _, err = run("run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "o"), "--set",
                "phases.chat.batching.padded_budget=true", "--set", "phases.chat.batching.scheduler=v1", expect=2)
check("padded_budget: applies to whole-prompt batches: set scheduler: v0" in err, f"chunked: {err.strip()}")

# Preemption by swap: 1,000 blocks, 20 requests of 4,000 + 2,000 tokens, so decodes preempt.
TIGHT = ["phases.chat.batching.kv_blocks=1000", "phases.chat.workload.output_tokens=2000"]
recomputed = chat(*TIGHT)
swapped = chat(*TIGHT, "phases.chat.batching.preemption=swap")
BLOCK = 16 * 327680  # bytes of one KV block of Llama-3-70B (all 8 GPUs)
check(recomputed["preemptions"] > 0 and recomputed["kv_swapped_bytes"] == 0, "preemption by recompute swaps nothing")
check(swapped["preemptions"] > 0 and swapped["kv_swapped_bytes"] > 0 and swapped["kv_swapped_bytes"] % BLOCK == 0,
      f"preemption by swap moves whole blocks: {swapped['kv_swapped_bytes']} bytes")
check(swapped["completed"] == 20 and swapped["end_s"] != recomputed["end_s"],
      f"swapping instead of recomputing changes the run: {swapped['end_s']} vs {recomputed['end_s']}")
slow_link = chat(*TIGHT, "phases.chat.batching.preemption=swap", "platform.groups.gpu.gpu.pcie_gen=3")
check(slow_link["end_s"] > swapped["end_s"], "the swap crosses PCIe: Gen3 takes longer than Gen4")
small = chat(*TIGHT, "phases.chat.batching.preemption=swap", "phases.chat.batching.swap_space=100MB")
check(small["kv_swapped_bytes"] == 0 and small["end_s"] == recomputed["end_s"],
      "a swap space that holds no victim (100 MB per GPU, a victim needs 160 MB or more) recomputes")
_, _, err = run("run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "o"), "--set",
                "phases.chat.batching.swap_space=8GiB", expect=2)
check("swap_space: applies to preemption: swap" in err, f"swap_space without swap: {err.strip()}")
for bad, says in [("phases.chat.batching.preemption=drop", "unknown preemption 'drop' (expected recompute or swap)"),
                  ("phases.chat.batching.swap_space=100kB", "batching.swap_space holds no KV block")]:
    _, _, err = run("run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "o"), "--set",
                    "phases.chat.batching.preemption=swap", "--set", bad, expect=2)
    check(says in err, f"{bad}: {err.strip()}")
_, _, err = run("run", "scenarios/paper/fastdecode.yaml", "--quiet", "--out", os.path.join(scratch_dir(), "o"),
                "--set", "phases.fastdecode.batching.preemption=swap", expect=2)
check("FastDecode's KV is already in the R-workers' memory" in err, f"FastDecode refuses swap: {err.strip()}")
finish()
