"""Preemption by recompute that remembers (tests/inputs/serve_preempt_prefix.yaml): two requests of
1,024 prompt tokens, 64 prefix blocks of 16 tokens each of their own, and 300 output tokens, on an
instance of 140 KV blocks of 16 tokens. Closed form, in blocks: both reach 70 blocks (1,120 tokens)
and the 141st is missing, so the later one is preempted at 1,120 tokens. With prefix caching its
64 prompt blocks stay cached in the 70 blocks it freed; the earlier one then grows to 83 blocks
(1,324 tokens), leaving 57 free, so the cache keeps the victim's first 57 blocks (the tail goes
first, as vLLM frees a sequence's blocks in reverse). Readmitted, it recomputes 1,120 - 57 x 16 =
208 tokens instead of 1,120."""
from harness import check, check_close, finish, phase_metrics

SCENARIO = "tests/inputs/serve_preempt_prefix.yaml"

cached = phase_metrics(SCENARIO, "chat")
plain = phase_metrics(SCENARIO, "chat", "phases.chat.system.prefix_caching=false")
check(cached["preemptions"] == 1 and plain["preemptions"] == 1, "one preemption either way")
check(plain["recomputed_tokens"] == 1120, f"without the cache, all 1,120 tokens again: {plain['recomputed_tokens']}")
check(cached["recomputed_tokens"] == 1120 - 57 * 16,
      f"with it, only what the cache lost: 1,120 - 57 x 16 = 208: {cached['recomputed_tokens']}")
check(cached["end_s"] < plain["end_s"], f"the phase ends sooner: {cached['end_s']} against {plain['end_s']}")
check_close(cached["mean_ttft_s"], plain["mean_ttft_s"], 1e-12, "the first tokens came before the preemption")

# Preemption by swap keeps the KV: nothing is recomputed.
swapped = phase_metrics(SCENARIO, "chat", "phases.chat.batching.preemption=swap")
check(swapped["preemptions"] == 1 and swapped["recomputed_tokens"] == 0, f"swap recomputes nothing: {swapped}")

finish()
