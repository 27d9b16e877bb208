"""Preemption by recompute that remembers (tests/inputs/serve_preempt_prefix.yaml): two requests of
1,024 prompt tokens, 64 prefix blocks of 16 tokens each of their own, and 300 output tokens, on an
instance of 140 KV blocks of 16 tokens. Closed form, in blocks: both reach 70 blocks (1,120 tokens)
and the 141st is missing, so the later one is preempted at 1,120 tokens. With prefix caching its
64 prompt blocks stay cached in the 70 blocks it freed; the earlier one then grows to 83 blocks
(1,324 tokens), leaving 57 free, so the cache keeps the victim's first 57 blocks (the tail goes
first, as vLLM frees a sequence's blocks in reverse). Readmitted, it prefills 1,120 tokens, of
which 1,119 had been computed (its last output token's KV had not): it computes again 1,119 - 57 x 16
= 207 tokens instead of 1,119."""
from harness import check, check_close, finish, phase_metrics

SCENARIO = "tests/inputs/serve_preempt_prefix.yaml"

cached = phase_metrics(SCENARIO, "chat")
plain = phase_metrics(SCENARIO, "chat", "phases.chat.system.prefix_caching=false")
check(cached["preemptions"] == 1 and plain["preemptions"] == 1, "one preemption either way")
check(plain["recomputed_tokens"] == 1119, f"without the cache, all 1,119 tokens again: {plain['recomputed_tokens']}")
check(cached["recomputed_tokens"] == 1119 - 57 * 16,
      f"with it, only what the cache lost: 1,119 - 57 x 16 = 207: {cached['recomputed_tokens']}")
check(cached["end_s"] < plain["end_s"], f"the phase ends sooner: {cached['end_s']} against {plain['end_s']}")
check_close(cached["mean_ttft_s"], plain["mean_ttft_s"], 1e-12, "the first tokens came before the preemption")

# A victim preempted in the middle of its prompt (1,984 tokens in chunks of 32, against a request
# decoding 1,500 tokens): without the cache it computes again the chunks it had computed, not its
# whole prompt (the rest is prefilled for the first time); with the cache, that less the whole
# blocks the cache kept. Its hits on blocks it cached itself are not the request's prefix hits.
MID = ["phases.chat.workload={trace: serve_preempt_midprefill.jsonl, format: mooncake, block_tokens: 16}",
       "phases.chat.batching={kv_blocks: 140, block_size: 16, prefill_chunk: 32}"]
mid = phase_metrics(SCENARIO, "chat", *MID)
mid_plain = phase_metrics(SCENARIO, "chat", *MID, "phases.chat.system.prefix_caching=false")
again = mid_plain["recomputed_tokens"]
check(mid["preemptions"] == 1 and mid_plain["preemptions"] == 1 and 0 < again < 1984 and again % 32 == 0,
      f"mid-prompt, no cache: the chunks computed before, not the whole prompt: {again}")
kept = again - mid["recomputed_tokens"]
check(0 < kept <= again and kept % 16 == 0, f"with the cache, less whole blocks kept: {mid['recomputed_tokens']}")
check(mid["prefix_hit_ratio"] == 0, f"no request shares a block: hit ratio {mid['prefix_hit_ratio']}")

# Preemption by swap keeps the KV: nothing is recomputed.
swapped = phase_metrics(SCENARIO, "chat", "phases.chat.batching.preemption=swap")
check(swapped["preemptions"] == 1 and swapped["recomputed_tokens"] == 0, f"swap recomputes nothing: {swapped}")

finish()
