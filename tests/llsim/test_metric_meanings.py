"""Metrics that mean their names: gpu_utilization, gpu_hbm_utilization and gpu_busy_share are over
the GPUs the instances held, not over every instance the group could hold; gpu_utilization is the
flop's time at peak (MFU), not the busy time; the time per output token (TPOT) and the TBT statistic the SLO limits are
separate metrics and columns. At 559e7f9 one saturated instance of a group of 8 read
gpu_utilization 0.125, any decode step counted as fully used (an autoscaler on it went to its
maximum), and mean_tbt_s was the SLO's tail mean under a name that reads as the mean gap."""
import csv
import os

from harness import check, check_close, finish, run_out, summary

AUTOSCALE = "tests/inputs/autoscale.yaml"
SINGLE = "tests/inputs/serve_single.yaml"

# One instance of a group of 8 allocated (the target never asks for a second), kept busy by 200
# requests that arrive at once: its GPU computes all the phase's time but the first arrival.
SATURATED = "phases.chat.workload={requests: 200, arrival: 0s, input_tokens: 500, output_tokens: 200}"
ONE = "phases.chat.autoscale={impl: target, metric: running, target: 1000, min: 1, max: 8}"
# The roofline reaching 0.6 of both peaks with no fixed cost: a compute-bound iteration's flop take
# 0.6 of its time at peak flops, a memory-bound one's bytes 0.6 of it at peak bandwidth.
ROOFLINE_06 = "phases.chat.iteration={impl: roofline, mfu: 0.6, hbm_efficiency: 0.6}"
m = summary(run_out(AUTOSCALE, ONE, SATURATED, ROOFLINE_06))["phases"]["chat"]
check(m["peak_instances"] == 1, f"one instance allocated: {m['peak_instances']}")
check(m["gpu_busy_share"] > 0.99, f"a saturated instance's GPU is busy: gpu_busy_share {m['gpu_busy_share']}")
check(m["gpu_utilization"] < m["gpu_hbm_utilization"] < 0.6 * m["gpu_busy_share"],
      f"decode steps are memory-bound: flop utilisation {m['gpu_utilization']} below HBM's {m['gpu_hbm_utilization']}")

# Prompts alone (one output token: no decode step) are compute-bound: MFU is 0.6 of the busy time.
m = summary(run_out(AUTOSCALE, ONE, ROOFLINE_06, "phases.chat.workload={requests: 200, arrival: 0s, "
                    "input_tokens: 2000, output_tokens: 1}"))["phases"]["chat"]
check_close(m["gpu_utilization"], 0.6 * m["gpu_busy_share"], 1e-9, "prefills alone: gpu_utilization is 0.6 x busy")
# Five ten-token prompts and their decodes are all memory-bound (Llama-2-7B reads its 13.5 GB of
# weights for at most 50 tokens): HBM utilisation is 0.6 of the busy time.
m = summary(run_out(AUTOSCALE, ONE, ROOFLINE_06, "phases.chat.workload={requests: 5, arrival: 0s, "
                    "input_tokens: 10, output_tokens: 50}"))["phases"]["chat"]
check_close(m["gpu_hbm_utilization"], 0.6 * m["gpu_busy_share"], 1e-9,
            "memory-bound steps alone: gpu_hbm_utilization is 0.6 x busy")

# MFU grows with the load a GPU serves, where the busy share stays at 1 (at 559e7f9 both read 0.999).
loads = [summary(run_out(AUTOSCALE, ONE, f"phases.chat.workload={{requests: 300, arrival: {gap}, "
                         "input_tokens: 500, output_tokens: 200}"))["phases"]["chat"] for gap in ["1s", "100ms", "20ms"]]
check(loads[0]["gpu_utilization"] < loads[1]["gpu_utilization"] < loads[2]["gpu_utilization"],
      f"MFU rises with the load: {[round(x['gpu_utilization'], 4) for x in loads]}")

# An autoscaler on each: the busy share reads about 1 on the one instance and asks for
# ceil(1 / 0.7) = 2 (the second stays idle: every request arrived at once and queues on the
# first); MFU reads less than 0.7 and keeps one. A lower MFU target asks for more instances.
for metric, target, expected in [("gpu_busy_share", 0.7, 2), ("gpu_utilization", 0.7, 1)]:
    scaled = summary(run_out(AUTOSCALE, SATURATED, ROOFLINE_06, "phases.chat.autoscale={impl: target, metric: "
                             f"{metric}, target: {target}, min: 1, max: 8, cooldown: 0s, period: 5s}}"))
    check(scaled["phases"]["chat"]["peak_instances"] == expected,
          f"autoscaling on {metric} (target {target}): {scaled['phases']['chat']['peak_instances']} instances at "
          f"the peak, expected {expected}")
peaks = [summary(run_out(AUTOSCALE, f"phases.chat.autoscale={{impl: target, metric: gpu_utilization, target: {t}}}"))
         ["phases"]["chat"]["peak_instances"] for t in [0.05, 0.2]]
check(peaks[0] > peaks[1], f"a lower MFU target keeps more instances under the same load: {peaks}")

# TPOT from the requests' own columns: (finish - first token) / (output tokens - 1).
out = run_out(SINGLE, "phases.chat.workload={requests: 40, arrival: 50ms, input_tokens: 2000, output_tokens: 60}")
m = summary(out)["phases"]["chat"]
with open(os.path.join(out, "chat_requests.csv")) as f:
    rows = list(csv.DictReader(f))
tpot = [(float(r["finish_s"]) - float(r["first_token_s"])) / (int(r["output_tokens"]) - 1) for r in rows]
for row, expected in zip(rows, tpot):
    check_close(float(row["tpot_s"]), expected, 1e-9, f"request {row['request']}'s tpot_s is its mean gap")
check_close(m["mean_tpot_s"], sum(tpot) / len(tpot), 1e-9, "mean_tpot_s is the mean of the requests' TPOT")
slo_tbt = [float(r["slo_tbt_s"]) for r in rows]
check_close(m["mean_slo_tbt_s"], sum(slo_tbt) / len(slo_tbt), 1e-9, "mean_slo_tbt_s is the mean of slo_tbt_s")
check(m["mean_slo_tbt_s"] > 1.05 * m["mean_tpot_s"],
      f"the default tail mean (slowest 10% of gaps) reads above the mean gap when prompts interleave: "
      f"{m['mean_slo_tbt_s']} vs {m['mean_tpot_s']}")
check(m["p99_tpot_s"] >= m["p90_tpot_s"] >= min(tpot), "percentiles in order")
mean_statistic = summary(run_out(SINGLE, "phases.chat.workload={requests: 40, arrival: 50ms, input_tokens: 2000, "
                                         "output_tokens: 60}", "phases.chat.slo.tbt_statistic=mean"))
check_close(mean_statistic["phases"]["chat"]["mean_slo_tbt_s"], m["mean_tpot_s"], 1e-9,
            "with tbt_statistic: mean the SLO's statistic is the TPOT")

finish()
