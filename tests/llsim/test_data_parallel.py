"""A mixture of experts on data-parallel ranks with expert parallelism, through llsim
(tests/inputs/serve_qwen3_moe_dp.yaml: Qwen3-30B-A3B, DP 2 and EP 2 on two RTX PRO 6000, from
vLLM's own engine arguments): the import runs as the keys written out; each MoE layer gathers the
other rank's hidden states and scatters their sums back, exactly the all-gather's closed form;
a rank holds half the routed experts, so the model fits two 40 GB GPUs that it does not fit one
by one; dp moves the result; tp defaults to the host's GPUs over pp x dp; what dp cannot do is
refused (a dense model, pipeline stages, a dp not dividing the host, autoscaling, weights loaded
through storage, the roofline, more GPUs than experts under expert parallelism)."""
import csv
import os

from harness import check, check_close, finish, run_fails, run_out, scratch_dir, summary

SCENARIO = "tests/inputs/serve_qwen3_moe_dp.yaml"
EXACT = 1e-9


def simulate(*sets, scenario=SCENARIO):
    out = run_out(scenario, *sets)
    with open(os.path.join(out, "chat_operators.csv")) as f:
        ops = {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}
    return summary(out)["phases"]["chat"], ops


# --- The config is the keys written out.
PLAIN = os.path.join(scratch_dir(), "plain.yaml")  # the scenario without its vLLM config
with open(SCENARIO) as f, open(PLAIN, "w") as plain:
    plain.write("".join(line for line in f if "vllm_config:" not in line))
# The config's keys but the system's, as llsim writes them.
KEYS = ["phases.chat.model={preset: qwen3-30b-a3b}", "phases.chat.iteration={impl: operators, expert_parallel: true}",
        "phases.chat.batching={max_batch_size: 128, max_batch_tokens: 2048, prefill_chunk: 2048}"]
imported, imported_ops = simulate()
spelled, _ = simulate("phases.chat.system={impl: vllm, instances: gpu, dp: 2, tp: 1, prefix_caching: true}", *KEYS,
                      scenario=PLAIN)
check(imported == spelled, "data-parallel-size 2 with expert parallelism runs as system dp 2, expert_parallel")
check(imported["completed"] == 200 and imported_ops["moe_dispatch"] > 0, f"it runs and gathers: {imported}")

# --- A lone request of 1,000 tokens and 5 out over a link of 100 GB/s: each of 48 MoE layers
# gathers the other rank's hidden states (1,000 x 2,048 x 2 bytes, then 1 token's at each of 4
# decode steps) in one step of link_latency + bytes / (link x link_efficiency), and scatters as
# many back.
LONE = ["phases.chat.workload={requests: 1, arrival: 1s, input_tokens: 1000, output_tokens: 5}",
        "platform.groups.gpu.gpu.interconnect=nvlink", "platform.groups.gpu.gpu.interconnect_bandwidth=100GBps"]
_, ops = simulate(*LONE)
step = [3.375e-6 + tokens * 2048 * 2 / (100e9 * 0.4763) for tokens in (1000, 1, 1, 1, 1)]
check_close(ops["moe_dispatch"], 48 * sum(step), EXACT, "the all-gather of the ranks' hidden states")
check_close(ops["moe_combine"], ops["moe_dispatch"], EXACT, "the reduce-scatter of their sums")
check(ops["mlp_all_reduce"] == 0 and ops["attn_all_reduce"] == 0, "one GPU per rank: no tensor-parallel all-reduce")

# --- Each rank holds the layers but half of the 128 experts (about 32 GB of 61 GB): it fits a
# 40 GB GPU, which the whole model does not.
FORTY = ["platform.groups.gpu.gpu={preset: a100-40gb-sxm, count: 2}"]
fits, _ = simulate(*FORTY)
check(fits["completed"] == 200, f"dp 2 fits two 40 GB GPUs: {fits['completed']} completed")
run_fails(SCENARIO, "leave no room for KV", *FORTY, "phases.chat.system.dp=1")

# --- dp moves the result: two independent instances read all their tokens' experts themselves.
alone, alone_ops = simulate("phases.chat.system.dp=1")
check(alone["mean_tpot_s"] != imported["mean_tpot_s"] and alone_ops["moe_dispatch"] == 0,
      f"dp 1 against 2: TPOT {alone['mean_tpot_s']} vs {imported['mean_tpot_s']}")

# --- tp defaults to the host's GPUs over pp x dp: one GPU per rank here.
by_default, _ = simulate("phases.chat.system={impl: vllm, instances: gpu, dp: 2, prefix_caching: true}", *KEYS,
                         scenario=PLAIN)
check(by_default == imported, "dp 2 on 2 GPUs: tp 1 by default")

# --- Refused: dp of a dense model (its ranks are replicas), with pipeline stages, not dividing the
# host's instances, under autoscaling, with weights loaded through storage (the ranks hold
# different experts), under the roofline (which cannot price it); whole experts on more GPUs
# than there are experts.
run_fails(PLAIN, "the roofline prices an instance's weights and tokens alone; it cannot price MoE layers shared by 2",
          "phases.chat.model={preset: qwen3-30b-a3b}", "phases.chat.system.dp=2", "phases.chat.system.tp=1",
          "phases.chat.iteration={impl: roofline}")
run_fails(SCENARIO, "data-parallel ranks hold different experts: loading their weights through storage",
          "platform.groups.oss={count: 1, nic: {bandwidth: 10GBps}, disks: {count: 1, read: 2GBps, write: 1GBps, "
          "capacity: 10TB}}", "services={pfs: {kind: storage, servers: oss, files: [{path: m, bytes: 61GB}]}}",
          "phases.chat.weights={path: m, from: pfs}")
run_fails(PLAIN, "16 GPUs cannot each hold whole experts of 8", "platform.groups.gpu.gpu.count=16",
          "phases.chat.model={preset: mixtral-8x7b}", "phases.chat.system.dp=2", "phases.chat.system.tp=8",
          "phases.chat.iteration.expert_parallel=true")
run_fails(PLAIN, "data-parallel ranks of a dense model are independent replicas", "phases.chat.model={preset: qwen3-8b}",
          "phases.chat.system.dp=2", "phases.chat.system.tp=1")
run_fails(SCENARIO, "data parallelism with pipeline stages is not modelled", "phases.chat.system.pp=2",
          "platform.groups.gpu.gpu.count=4")
run_fails(SCENARIO, "dp x tp (2 x 1) must divide the 3 GPUs", "platform.groups.gpu.gpu.count=3")
run_fails(SCENARIO, "autoscale: this serving system does not scale",
          "phases.chat.autoscale={impl: schedule, table: [{at: 0s, instances: 1}, {at: 5s, instances: 2}]}")

finish()
