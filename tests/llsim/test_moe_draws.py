"""Experts reached by a MoE layer, drawn with the seed (experts_reached: drawn) instead of the
mean E (1 - (1 - k/E)^T), through llsim on Qwen3-30B-A3B (128 experts, 8 per token): a lone
request's decode reaches exactly 8 either way; four decoding at once reach a drawn number, the
same for the same seed and another for another seed; a lone request's TTFT is still the sum of
its operators; an unknown value is an error."""
import csv
import os

from harness import check, check_close, finish, run, run_fails, scratch_dir, summary

SCENARIO = "tests/inputs/serve_mixtral.yaml"  # two H100s, one request of 4,000 tokens
QWEN = "phases.chat.model={preset: qwen3-30b-a3b}"


def chat(reached, requests, *extra):
    out = scratch_dir()
    sets = [QWEN, f"phases.chat.iteration={{impl: operators, experts_reached: {reached}}}",
            f"phases.chat.workload.requests={requests}", "phases.chat.workload.arrival=0s",
            "phases.chat.workload.output_tokens=20"]
    run("run", SCENARIO, "--quiet", "--out", out, *sum((["--set", s] for s in sets), []), *extra)
    with open(os.path.join(out, "chat_operators.csv")) as f:
        ops = {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}
    return summary(out)["phases"]["chat"], ops


mean1, _ = chat("mean", 1)
drawn1, _ = chat("drawn", 1)
# Equal but for rounding: the drawn layers' experts are summed one by one, the mean's multiplied.
check_close(drawn1["mean_slo_tbt_s"], mean1["mean_slo_tbt_s"], 1e-12, "one token reaches exactly k experts: drawn = mean")
mean4, _ = chat("mean", 4)
drawn4, _ = chat("drawn", 4)
again, _ = chat("drawn", 4)
other, _ = chat("drawn", 4, "--seed", "2")
check(drawn4["mean_slo_tbt_s"] != mean4["mean_slo_tbt_s"], "four tokens: a drawn count, not the mean")
check(again == drawn4, "the same seed draws the same experts")
check(other["mean_slo_tbt_s"] != drawn4["mean_slo_tbt_s"], "another seed draws others")
check(abs(drawn4["mean_slo_tbt_s"] / mean4["mean_slo_tbt_s"] - 1) < 0.05, "the draws lie near the mean")
# The breakdown draws what the iteration drew: a lone request's TTFT is its operators' sum.
lone, ops = chat("drawn", 1, "--set", "phases.chat.workload.output_tokens=1")
check_close(lone["mean_ttft_s"], sum(ops.values()), 1e-9, "TTFT = the sum of the operators, drawn")
run_fails(SCENARIO, "experts_reached: unknown experts_reached 'some' (expected mean or drawn)", QWEN,
          "phases.chat.iteration={impl: operators, experts_reached: some}")
run_fails(SCENARIO, "experts_reached: drawn needs a mixture of experts", "phases.chat.model={preset: llama3.1-8b}",
          "phases.chat.iteration={impl: operators, experts_reached: drawn}")
finish()
