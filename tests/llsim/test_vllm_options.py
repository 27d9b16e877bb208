"""vLLM's scheduling options in a serve phase's batching, each through llsim: kv_blocks as vLLM's log
prints it (and refused beyond the HBM), activation_reserve taken from the KV, V0's admission
watermark, max_model_len capping outputs and rejecting prompts that reach it. Defaults leave
results as they were (V1: no watermark, no cap, blocks derived)."""
import os

from harness import check, check_close, finish, run, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"
# 20 prompts of 4,000 tokens arriving together, 50 tokens out each.
BURST = ["phases.chat.workload.requests=20", "phases.chat.workload.arrival=0s",
         "phases.chat.workload.output_tokens=50", "phases.chat.batching.prefill_chunk=512"]


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
check(reserved["mean_ttft_s"] != base["mean_ttft_s"] or reserved["mean_tbt_s"] != base["mean_tbt_s"],
      f"53 GB per GPU for activations leaves less KV: {reserved['mean_ttft_s']}, {reserved['mean_tbt_s']} vs "
      f"{base['mean_ttft_s']}, {base['mean_tbt_s']}")
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
finish()
