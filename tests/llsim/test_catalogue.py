"""The GPU and model catalogues through llsim: `llsim models` lists both with their figures; a
GPU preset's figures are what the roofline runs at and what resolved.yaml/resolved.json show; a
key beside the preset overrides its figure and moves the result; MoE models run, charged their
active params' compute while their weights count in full."""
import json
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir

PRESET = "tests/inputs/serve_gpu_preset.yaml"
MIXTRAL = "tests/inputs/serve_mixtral.yaml"
QWEN = "tests/inputs/serve_qwen3_moe.yaml"

# --- llsim models: both catalogues, with their figures.
_, listing, _ = run("models")
for text, what in [
    ("h100-sxm (NVIDIA H100 SXM5 80GB): flops 989.4TFlops, fp8_flops 1978.9TFlops, hbm 80GB, hbm_bandwidth 3.35TBps,"
     " interconnect nvlink, interconnect_bandwidth 450GBps, pcie_gen 5, pcie_lanes 16, tdp 700W", "H100 SXM"),
    ("a100-40gb-pcie (NVIDIA A100 40GB PCIe): flops 312TFlops, hbm 40GB", "A100 40GB PCIe, no FP8"),
    ("mi300x (AMD Instinct MI300X 192GB)", "MI300X"),
    ("a10 (NVIDIA A10 24GB): flops 125TFlops, hbm 24GB, hbm_bandwidth 600GBps, interconnect pcie", "A10"),
    ("rtx-pro-6000", "RTX PRO 6000 Blackwell"),
    ("mixtral-8x7b: 46.7 G parameters", "Mixtral 8x7B"),
    ("8 experts of 14336 (2 per token, 0 shared) -> 12.877132544 G active", "Mixtral's active params"),
    ("qwen3-30b-a3b: 30.5 G parameters, 48 layers, d_model 2048, 32 query heads, 4 KV heads x 128 (GQA)", "Qwen3 GQA"),
    ("(MLA: latent 512 + RoPE key 64)", "DeepSeek-V3's MLA"),
    ("-> 70272 B of KV per token", "DeepSeek-V3's KV: 61 x (512 + 64) x 2 B"),
    ("llama3.1-405b: 405.9 G parameters, 126 layers", "Llama-3.1 405B"),
    ("codellama-34b: 33.7 G parameters, 48 layers, d_model 8192, 64 query heads, 8 KV heads x 128 (GQA), MLP 22016",
     "CodeLlama-34B"),
    ("mistral-7b: 7.24 G parameters, 32 layers, d_model 4096, 32 query heads, 8 KV heads x 128 (GQA), MLP 14336",
     "Mistral-7B"),
]:
    check(text in listing, f"llsim models lists {what}: '{text}'")

# --- A GPU preset: the resolved outputs show its figures, and the roofline runs at them.
out = scratch_dir()
run("run", PRESET, "--quiet", "--out", out)
with open(os.path.join(out, "resolved.json")) as f:
    gpu = json.load(f)["platform"]["groups"]["gpu"]["gpu"]
check(gpu.get("preset") == "a100-80gb-sxm" and gpu.get("flops") == "312TFlops" and gpu.get("hbm") == "80GB" and
      gpu.get("hbm_bandwidth") == "2039GBps" and gpu.get("tdp") == "400W" and gpu.get("interconnect") == "nvlink",
      f"resolved.json shows the preset's figures: {gpu}")
check("fp8_flops" not in gpu, "the A100 has no FP8 figure")
with open(os.path.join(out, "resolved.yaml")) as f:
    check("flops: 312TFlops" in f.read(), "resolved.yaml shows the preset's flops")
# Re-running resolved.yaml (preset and its figures together) gives the same summary.
again = scratch_dir()
run("run", os.path.join(out, "resolved.yaml"), "--quiet", "--out", again)
with open(os.path.join(out, "summary.json")) as a, open(os.path.join(again, "summary.json")) as b:
    first, second = json.load(a), json.load(b)
check(first["phases"] == second["phases"], "resolved.yaml of a preset runs to the same metrics")

# LLaMA3-70B alone on 8 x (312 TFlops, 2039 GB/s): roofline mfu 0.5, hbm_efficiency 0.8.
P, LAYERS, D, KV = 70.6e9, 80, 8192, 2 * 80 * 8 * 128 * 2


def roofline(flop, bytes_, flops, hbm):
    return max(flop / (8 * flops * 0.5), bytes_ / (8 * hbm * 0.8))


def prefill_s(params, n, flops, hbm, kv=KV, width=D, layers=LAYERS, weights=None):
    return roofline(2 * params * n + 4 * layers * width * n * (n + 1) / 2, (weights or 2 * params) + kv * n, flops,
                    hbm)


m = first["phases"]["chat"]
check_close(m["mean_ttft_s"], prefill_s(P, 4000, 312e12, 2039e9), 0.02, "TTFT at the A100 preset's peak")
half = phase_metrics(PRESET, "chat", "platform.groups.gpu.gpu.flops=156TFlops")
check_close(half["mean_ttft_s"], 2 * m["mean_ttft_s"], 0.02, "overriding the preset's flops with half doubles TTFT")
slow = phase_metrics(PRESET, "chat", "platform.groups.gpu.gpu.hbm_bandwidth=1019.5GBps")
check_close(slow["mean_slo_tbt_s"], 2 * m["mean_slo_tbt_s"], 0.02, "half the preset's HBM bandwidth doubles the decode gap")
_, _, err = run("run", PRESET, "--quiet", "--out", scratch_dir(), "--set", "platform.groups.gpu.gpu.hbm=16GB", expect=2)
check("8 x 16 GB of HBM" in err, f"16 GB per GPU overriding 80 GB: LLaMA3-70B's weights no longer fit: {err}")
h100 = phase_metrics(PRESET, "chat", "platform.groups.gpu.gpu.preset=h100-sxm")
check_close(h100["mean_ttft_s"], m["mean_ttft_s"] * 312 / 989.4, 0.02, "H100 SXM's figures in place of the A100's")
check_close(h100["mean_slo_tbt_s"], m["mean_slo_tbt_s"] * 2039 / 3350, 0.02, "H100 SXM's HBM bandwidth in place of the A100's")

# --- MoE: Mixtral 8x7B alone on 2 x H100 SXM. Prefill charges the active params' compute;
# weights held and read count all 46.7 G. A dense model of the same shape and total params is
# charged the total.
mix = phase_metrics(MIXTRAL, "chat")
check(mix["completed"] == 1, "Mixtral 8x7B serves its request")
ACTIVE = 46.7e9 - 6 * 32 * 3 * 4096 * 14336
MKV = 2 * 32 * 8 * 128 * 2


def h100x2(flop, bytes_):
    return max(flop / (2 * 989.4e12 * 0.5), bytes_ / (2 * 3.35e12 * 0.8))


mix_prefill = h100x2(2 * ACTIVE * 4000 + 4 * 32 * 4096 * 4000 * 4001 / 2, 2 * 46.7e9 + MKV * 4000)
check_close(mix["mean_ttft_s"], mix_prefill, 0.02, "Mixtral's TTFT: the active params' compute")
dense = phase_metrics(MIXTRAL, "chat", "phases.chat.model={params: 46.7G, layers: 32, d_model: 4096, heads: 32, "
                      "kv_heads: 8, head_dim: 128}")
check(mix["mean_ttft_s"] < 0.4 * dense["mean_ttft_s"],
      f"a MoE prefill is cheaper than a dense one of the same total params: {mix['mean_ttft_s']} vs "
      f"{dense['mean_ttft_s']}")
check_close(mix["mean_slo_tbt_s"], dense["mean_slo_tbt_s"], 1e-9, "decode alone reads the total weights, as the dense model")

# --- Qwen3-30B-A3B under load on one H100 SXM.
qwen = phase_metrics(QWEN, "chat")
check(qwen["completed"] == 50, "Qwen3-30B-A3B serves all 50 requests")

finish()
