"""The operators iteration model through llsim: a lone request's TTFT and decode gap are the sums of
the operator times in <phase>_operators.csv, exactly; TP2 adds two ring all-reduces per layer; a
Vidur profile's points read back exactly and are interpolated between; MoE models run; every key
of the model (and the GPU and model keys it reads) moves a result; bad profiles are errors naming
the file and line."""
import csv
import os
import shutil

from harness import ROOT, check, check_close, finish, run, run_fails, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"
PROFILE = "traces/calibration/vidur/a100/llama-2-7b"
NETWORK = "traces/calibration/vidur/network/a100_dgx"


def simulate(*sets, scenario=SCENARIO):
    """Runs with --set overrides; returns (chat metrics, {operator: seconds})."""
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "chat_operators.csv")) as f:
        ops = {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}
    return summary(out)["phases"]["chat"], ops


# --- A request alone: its TTFT is its prefill iteration, the sum of the operators.
chat, ops = simulate()
check_close(chat["mean_ttft_s"], sum(ops.values()), 1e-9, "TTFT = the sum of the operators of the prefill")
# Closed forms of three of them: Llama-3-70B, 4000 tokens, 8 x A100 (NVLink 300 GB/s each way),
# the A100 preset's fitted gemm_efficiency 0.7619, gemm_half_tokens 95.31, bandwidth_efficiency
# 0.7501, kernel_launch 5.572 us, and the defaults link_latency 3.375 us, link_efficiency 0.4763,
# CPU 0.8679 ms + 0.03621 ms per sequence.
ALPHA, LINK = 3.375e-6, 300e9 * 0.4763
T, D, B, TP, LAYERS, VOCAB = 4000, 8192, 2, 8, 80, 128256
ring = 2 * (TP - 1) * (ALPHA + T * D * B / TP / LINK)
check_close(ops["attn_all_reduce"], LAYERS * ring, 1e-9, "attention all-reduces: 80 rings of 2 x 7 steps")
check_close(ops["cpu_overhead"], 0.8679e-3 + 0.03621e-3, 1e-9, "CPU: per iteration + one sequence")
n = VOCAB / TP
lm_head = 5.572e-6 + max(2 * 1 * D * n / (312e12 * 0.7619 * 1 / (1 + 95.31)),
                        (D * n + D + n) * B / (2039e9 * 0.7501))
check_close(ops["lm_head"], lm_head, 1e-9, "LM head: one token (the last of the prompt) by d_model x vocab/8")
check(ops["moe_experts"] == 0 and ops["mlp_up_proj"] > 0, "a dense model: MLP, no experts")

# Its decode gap: the second iteration, the rest of the operators' time.
chat2, ops2 = simulate("phases.chat.workload.output_tokens=2")
check_close(chat2["mean_slo_tbt_s"], sum(ops2.values()) - chat2["mean_ttft_s"], 1e-9,
            "decode gap = the sum of the operators of the decode")

# --- TP2 adds exactly two all-reduces per layer per iteration (Llama-3.1-8B fits on one GPU).
SMALL = "phases.chat.model={preset: llama3.1-8b}"
_, one = simulate(SMALL, "platform.groups.gpu.gpu.count=1")
_, two = simulate(SMALL, "platform.groups.gpu.gpu.count=2")
check(one["attn_all_reduce"] == 0 and one["mlp_all_reduce"] == 0, "one GPU: no all-reduce")
each = 2 * 1 * (ALPHA + T * 4096 * B / 2 / LINK)
check_close(two["attn_all_reduce"] + two["mlp_all_reduce"], 2 * 32 * each, 1e-9, "TP2: 2 x 32 layers x one ring")

# --- A Vidur profile: its points read back exactly; between them, interpolated.
rows = {}
with open(os.path.join(ROOT, PROFILE, "mlp.csv")) as f:
    for r in csv.DictReader(f):
        if r["num_tensor_parallel_workers"] == "1":
            rows.setdefault(int(r["num_tokens"]), []).append(r)


def measured(tokens, op):
    values = [float(r[f"time_stats.{op}.median"]) for r in rows[tokens]]
    return sum(values) / len(values) / 1000


LLAMA2 = ["phases.chat.model={preset: llama2-7b}", "platform.groups.gpu.gpu.count=1"]
for tokens in (512, 1024, 1040):
    _, p = simulate(*LLAMA2, f"phases.chat.workload.input_tokens={tokens}",
                    f"phases.chat.iteration={{impl: operators, profile: {os.path.join(ROOT, PROFILE)}}}")
    check_close(p["attn_pre_proj"], 32 * measured(tokens, "attn_pre_proj"), 1e-9,
                f"profile point {tokens} tokens: QKV projection x 32 layers")
    check_close(p["embedding"], measured(tokens, "emb"), 1e-9, f"profile point {tokens}: embedding once")
    check_close(p["add"], 32 * measured(tokens, "add"), 1e-9, f"profile point {tokens}: one add per layer")
_, between = simulate(*LLAMA2, "phases.chat.workload.input_tokens=1030",
                      f"phases.chat.iteration={{impl: operators, profile: {os.path.join(ROOT, PROFILE)}}}")
low, high = sorted([32 * measured(1024, "mlp_up_proj"), 32 * measured(1040, "mlp_up_proj")])
check(low <= between["mlp_up_proj"] <= high, f"1030 tokens lies between 1024 and 1040: {low} <= "
      f"{between['mlp_up_proj']} <= {high}")
# Beyond the profile's last point (4,096 tokens) times keep growing: never below the last value.
last = None
for tokens in (4096, 5000, 8000):
    _, p = simulate(*LLAMA2, f"phases.chat.workload.input_tokens={tokens}",
                    f"phases.chat.iteration={{impl: operators, profile: {os.path.join(ROOT, PROFILE)}}}")
    check(last is None or p["attn_pre_proj"] >= last, f"{tokens} tokens: QKV time does not fall beyond the profile")
    last = p["attn_pre_proj"]
# With the network profile too (two directories), TP2's all-reduces are measured ones.
_, both = simulate("phases.chat.model={preset: llama2-7b}", "platform.groups.gpu.gpu.count=2",
                   f"phases.chat.iteration={{impl: operators, profile: [{os.path.join(ROOT, PROFILE)}, "
                   f"{os.path.join(ROOT, NETWORK)}]}}")
check(both["attn_all_reduce"] == both["mlp_all_reduce"] > 0, "measured all-reduces, two per layer")
check(abs(both["attn_all_reduce"] - 32 * 2 * (ALPHA + T * 4096 * B / 2 / LINK)) > 1e-6,
      "the measured all-reduce is not the alpha-beta one")

# --- Mixtures of experts run; Qwen3-30B-A3B has no dense layer.
for model in ("mixtral-8x7b", "qwen3-30b-a3b"):
    chat, p = simulate(f"phases.chat.model={{preset: {model}}}", "phases.chat.workload.output_tokens=20")
    check(chat["completed"] == 1 and p["moe_experts"] > 0 and p["moe_router"] > 0, f"{model} runs its experts")
check(p["mlp_up_proj"] == 0, "qwen3-30b-a3b: every layer is MoE")

# --- Every key moves a result.
base, _ = simulate("phases.chat.workload.output_tokens=3")


def moves(what, *sets, scenario_base=None, **_):
    chat, _ = simulate("phases.chat.workload.output_tokens=3", *sets)
    reference = scenario_base or base
    check(chat["mean_ttft_s"] != reference["mean_ttft_s"] or chat["mean_slo_tbt_s"] != reference["mean_slo_tbt_s"],
          f"{what} moves TTFT or TBT")


for key, value in [("gemm_efficiency", 0.5), ("gemm_half_tokens", 500), ("bandwidth_efficiency", 0.5),
                   ("kernel_launch", "50us"), ("link_latency", "100us"), ("link_efficiency", 0.9),
                   ("cpu_per_iteration", "10ms"), ("cpu_per_sequence", "5ms")]:
    moves(key, f"phases.chat.iteration.{key}={value}")
moves("profile", f"phases.chat.iteration.profile={os.path.join(ROOT, NETWORK)}")
# Expert parallelism does the same work on average: it moves the result where each GPU's share
# follows the experts drawn, or where an all-to-all carries the tokens.
MIXTRAL = "phases.chat.model={preset: mixtral-8x7b}"
DRAWN = "phases.chat.iteration.experts_reached=drawn"
EP = "phases.chat.iteration.expert_parallel=true"
mixtral_base, _ = simulate(MIXTRAL, DRAWN, "phases.chat.workload.output_tokens=3")
moves("expert_parallel", MIXTRAL, DRAWN, EP, scenario_base=mixtral_base)
ep_base, _ = simulate(MIXTRAL, EP, "phases.chat.workload.output_tokens=3")
moves("moe_comm", MIXTRAL, EP, "phases.chat.iteration.moe_comm=all_to_all", scenario_base=ep_base)
# The GPU's fitted kernel figures are the defaults; the iteration's own keys override them.
for key, value, other in [("gemm_efficiency", 0.5, 0.6), ("gemm_half_tokens", 500, 20),
                          ("bandwidth_efficiency", 0.5, 0.6), ("kernel_launch", "50us", "1us")]:
    moves(f"the GPU's {key}", f"platform.groups.gpu.gpu.{key}={value}")
    both, _ = simulate("phases.chat.workload.output_tokens=3", f"platform.groups.gpu.gpu.{key}={value}",
                       f"phases.chat.iteration.{key}={other}")
    alone, _ = simulate("phases.chat.workload.output_tokens=3", f"phases.chat.iteration.{key}={other}")
    check(both == alone, f"the iteration's {key} wins over the GPU's")
# GPU keys the operators model reads: the link, and the FP8 peak for FP8 weights.
moves("interconnect_bandwidth", "platform.groups.gpu.gpu.interconnect_bandwidth=100GBps")
moves("interconnect pcie", "platform.groups.gpu.gpu.interconnect=pcie")
pcie = ["platform.groups.gpu.gpu.interconnect=pcie"]
pcie4, _ = simulate("phases.chat.workload.output_tokens=3", *pcie)
moves("pcie_gen", *pcie, "platform.groups.gpu.gpu.pcie_gen=5", scenario_base=pcie4)
moves("pcie_lanes", *pcie, "platform.groups.gpu.gpu.pcie_lanes=8", scenario_base=pcie4)
H100_FP8 = ["platform.groups.gpu.gpu={preset: h100-sxm, count: 8}", "phases.chat.model.dtype_bytes=1"]
fp8, _ = simulate("phases.chat.workload.output_tokens=3", *H100_FP8)
moves("fp8_flops", *H100_FP8, "platform.groups.gpu.gpu.fp8_flops=1000TFlops", scenario_base=fp8)
# Model keys the roofline never read: the MLP's and the vocabulary's sizes, shared experts.
OWN = ("phases.chat.model={params: 8G, layers: 32, d_model: 4096, heads: 32, kv_heads: 8, head_dim: 128, "
       "ffn: 14336, vocab: 128256}")
own, _ = simulate("phases.chat.workload.output_tokens=3", OWN)
moves("ffn", OWN, "phases.chat.model.ffn=20000", scenario_base=own)
moves("vocab", OWN, "phases.chat.model.vocab=32000", scenario_base=own)
MOE = ("phases.chat.model={params: 30G, layers: 48, d_model: 2048, heads: 32, kv_heads: 4, head_dim: 128, "
       "vocab: 151936, experts: 128, experts_per_token: 8, expert_ffn: 768}")
moe, _ = simulate("phases.chat.workload.output_tokens=3", MOE)
moves("shared_experts", MOE, "phases.chat.model.shared_experts=2", scenario_base=moe)

# --- Bad profiles and shapes: errors that name the file and line (exit 2, no output).
bad = scratch_dir()


def fails(text, *sets):
    run_fails(SCENARIO, text, *sets)


fails(f"{PROFILE}/mlp.csv:785: the profile was measured for n_embd 4096; the model has d_model 8192",
      f"phases.chat.iteration.profile={os.path.join(ROOT, PROFILE)}")
fails("no rows for num_tensor_parallel_workers 3 (it has 1, 2, 4, 8)", *LLAMA2[:1],
      "platform.groups.gpu.gpu.count=3", f"phases.chat.iteration.profile={os.path.join(ROOT, PROFILE)}")
fails("holds none of mlp.csv, attention.csv, all_reduce.csv, send_recv.csv, cpu_overheads.csv", f"phases.chat.iteration.profile={bad}")
os.makedirs(os.path.join(bad, "broken"))
shutil.copy(os.path.join(ROOT, PROFILE, "mlp.csv"), os.path.join(bad, "broken", "mlp.csv"))
with open(os.path.join(bad, "broken", "mlp.csv")) as f:
    lines = f.read().splitlines()
cells = lines[1].split(",")
cells[3] = "x"  # the first row's (TP 1) time_stats.emb.median
lines[1] = ",".join(cells)
with open(os.path.join(bad, "broken", "mlp.csv"), "w") as f:
    f.write("\n".join(lines) + "\n")
fails("mlp.csv:2: column 'time_stats.emb.median': 'x", *LLAMA2,
      f"phases.chat.iteration.profile={os.path.join(bad, 'broken')}")
fails("the operators model needs the model's ffn",
      "phases.chat.model={params: 8G, layers: 32, d_model: 4096, kv_heads: 8, head_dim: 128, vocab: 32000}")
fails("expert_parallel: needs a mixture of experts", "phases.chat.iteration.expert_parallel=true")
fails("moe_comm: all_to_all sends tokens to whole experts: it needs expert_parallel: true", MIXTRAL,
      "phases.chat.iteration.moe_comm=all_to_all")
fails("the operators model needs the link between the 2 GPUs",
      "platform.groups.gpu.gpu={flops: 312TFlops, hbm_bandwidth: 2TBps, hbm: 80GB, count: 2}", SMALL)

finish()
