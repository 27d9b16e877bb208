"""The GPU profiler (analysis/profile/profile_gpu.py), run on this machine's CPU and read back by
llsim: its table of models is llsim's catalogue, figure by figure; a quick profile of one GPU's
share of Llama-2-7B at TP8, with collectives between 2 processes, writes Vidur's layout and its
provenance; `llsim calibrate` fits from its mlp.csv, attention.csv and all_reduce.csv; a serve
run with `profile:` takes the profile's medians exactly where a lone request's prefill and decode
fall on its points, and the rooflines without it; llsim refuses the profile for a model of another
shape. Needs python3-torch (.ci/install-deps installs it); without it the test fails."""
import csv
import json
import os
import re
import shutil
import subprocess
import sys

from harness import ROOT, check, check_close, finish, run, scratch_dir, summary

sys.path.insert(0, os.path.join(ROOT, "analysis", "profile"))
import catalogue  # noqa: E402  (the profiler's table of models)

PROFILER = os.path.join(ROOT, "analysis", "profile", "profile_gpu.py")
SCENARIO = "tests/inputs/serve_operators.yaml"  # one request, 8 x A100 per instance
MODEL = "llama2-7b"
LAYERS, D_MODEL = 32, 4096
# A device of made-up figures for `llsim calibrate`: its peaks are far above any CPU's, so that the
# efficiencies fitted stay below 1 on any machine, and its flops are close to its bandwidth, so
# that the small attention points are compute-bound and determine attention_efficiency. This
# checks the round trip, not a calibration.
STAND_IN = ["--model", f"preset: {MODEL}", "--gpu", "flops: 100TFlops, hbm: 80GB, hbm_bandwidth: 100TBps, "
            "interconnect: nvlink, interconnect_bandwidth: 300GBps"]


def profiler(*args):
    return subprocess.run([sys.executable, PROFILER, *args], capture_output=True, text=True, cwd=ROOT)


def medians(path, key):
    """{key(row): {operator: median ms}} of a profile CSV."""
    with open(path) as f:
        return {key(r): {c.split(".")[1]: float(v) for c, v in r.items() if c.endswith(".median") and v}
                for r in csv.DictReader(f)}


def operators(*sets):
    """(chat metrics, {operator: seconds}) of one run of SCENARIO with --set overrides."""
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    code, _, _ = run(*args)
    if code != 0:
        return {}, {}
    with open(os.path.join(out, "chat_operators.csv")) as f:
        return summary(out)["phases"]["chat"], {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}


def calibrated(flag, path, *coefficients):
    """Runs `llsim calibrate FLAG PATH`; checks that it fits `coefficients` and prints each > 0."""
    code, text, _ = run("calibrate", *STAND_IN, flag, path, "--folds", "0")
    block = re.search(r"^iteration: \{impl: operators, (.*)\}$", text, re.M)
    check(code == 0 and f"calibrated on {path}: " in text and f"fitting {', '.join(coefficients)}" in text
          and text.count("# fitted by llsim calibrate on " + path) == 1 and block is not None,
          f"calibrate {flag} fits {coefficients} from the profile: {text[-1500:]}")
    if block:
        values = dict(kv.split(": ") for kv in block.group(1).split(", "))
        for c in coefficients:
            number = re.match(r"[0-9.e+-]+", values.get(c, ""))
            check(number is not None and float(number.group(0)) > 0, f"{c} fitted: {values.get(c)}")


# --- The profiler's table of models is llsim's catalogue: every dense model (MHA or GQA, no
# experts) that `llsim models` lists, with the same figures, and no other.
_, listing, _ = run("models")
FIGURES = re.compile(r"^  (\S+): [0-9.]+ G parameters, (\d+) layers, d_model (\d+), (\d+) query heads, (\d+) KV "
                     r"heads x (\d+) \((\w+)[^)]*\), MLP (\d+)( gated)?, vocab (\d+)(, \d+ experts)?", re.M)
dense = {}
for m in FIGURES.finditer(listing):
    if m.group(7) in ("MHA", "GQA") and not m.group(11):
        dense[m.group(1)] = catalogue.Model(m.group(1), *(int(m.group(i)) for i in (2, 3, 4, 5, 6, 8, 10)),
                                            gated_mlp=bool(m.group(9)))
check(len(dense) >= 9 and MODEL in dense, f"llsim lists its dense models: {sorted(dense)}")
check(sorted(dense) == sorted(catalogue.MODELS), f"the profiler knows llsim's dense models: {sorted(dense)} "
      f"against {sorted(catalogue.MODELS)}")
for name, model in dense.items():
    check(catalogue.MODELS.get(name) == model, f"{name}: llsim has {model}, the profiler "
          f"{catalogue.MODELS.get(name)}")

# --- A quick profile on the CPU: Llama-2-7B's share of one of 8 GPUs, collectives between 2.
folder = scratch_dir()
proc = profiler("--model", MODEL, "--tp", "8", "--device", "cpu", "--quick", "--workers", "2", "--out", folder)
check(proc.returncode == 0, f"the profiler runs on the CPU (it needs python3-torch: bash .ci/install-deps): "
      f"{proc.stderr[-2000:]}")
if proc.returncode != 0:
    finish()  # the checks below read what it writes
written = sorted(os.listdir(folder))
check(written == ["all_reduce.csv", "all_to_all.csv", "attention.csv", "mlp.csv", "provenance.json", "send_recv.csv"],
      f"it writes Vidur's files and its provenance: {written}")
with open(os.path.join(folder, "provenance.json")) as f:
    provenance = json.load(f)
check(provenance["command"].endswith(f"--quick --workers 2 --out {folder}") and provenance["device"]["type"] == "cpu"
      and provenance["device"]["torch"] and re.fullmatch(r"[0-9a-f]{40}", provenance["llsim"]["commit"] or "")
      and re.match(r"\d{4}-\d\d-\d\dT", provenance["date"]) and "none is fitted" in provenance["what"],
      f"provenance: command, device, torch, llsim commit, date, nothing fitted: {provenance}")
check("CUDA graphs" in provenance["left_out"].get("step_check.csv", ""),
      f"provenance says why there are no whole steps on a CPU: {provenance['left_out']}")
check(provenance["files"] == {"mlp.csv": 4, "attention.csv": 8, "all_reduce.csv": 4, "all_to_all.csv": 4,
                              "send_recv.csv": 4}, f"the quick grid's rows: {provenance['files']}")

mlp = medians(os.path.join(folder, "mlp.csv"), lambda r: int(r["num_tokens"]))
attention = medians(os.path.join(folder, "attention.csv"), lambda r: (
    r["is_prefill"] == "True", int(r["batch_size"]), int(r["prefill_chunk_size"]), int(r["kv_cache_size"])))
all_reduce = medians(os.path.join(folder, "all_reduce.csv"), lambda r: int(r["size"]))
check(sorted(mlp) == [1, 2, 4, 8] and all(len(ops) == 10 and min(ops.values()) > 0 for ops in mlp.values()),
      f"mlp.csv: 10 operators at 1, 2, 4 and 8 tokens, every time > 0: {mlp}")
# One GPU's share at TP8, as vLLM splits the layer: QKV 4096 -> (4 + 2 x 4) x 128, output
# 512 -> 4096, gate and up 4096 -> 2 x 1376, down 1376 -> 4096, the vocabulary's eighth.
import torch  # noqa: E402  (present: the profiler ran)
import attention_ops  # noqa: E402
import layer_ops  # noqa: E402
weights = layer_ops.LayerWeights(catalogue.shard(catalogue.MODELS[MODEL], 8), torch.float32, torch.device("cpu"))
shapes = {name: tuple(getattr(weights, name).shape) for name in ("qkv", "o", "up", "down", "embedding")}
check(shapes == {"qkv": (1536, 4096), "o": (4096, 512), "up": (2752, 4096), "down": (4096, 1376),
                 "embedding": (4000, 4096)}, f"one GPU's share of the weights at TP8: {shapes}")
# A GQA prefill shares each KV head among its query heads without copying: its output is that of
# attention over K and V expanded to the query heads (Llama-2-70B at TP8: 8 query heads, 1 KV head).
torch.manual_seed(0)
for context in (0, 3):
    q, k, v = torch.randn(1, 8, 4, 16), torch.randn(1, 2, context + 4, 16), torch.randn(1, 2, context + 4, 16)
    out = attention_ops.prefill_kernel(q, k, v, context)().reshape(1, 8, 4, 16)
    expanded_k, expanded_v = k.repeat_interleave(4, dim=1), v.repeat_interleave(4, dim=1)
    scores = q @ expanded_k.transpose(-2, -1) / 4.0
    seen = torch.arange(context + 4)[None, :] <= context + torch.arange(4)[:, None]
    reference = scores.masked_fill(~seen, float("-inf")).softmax(-1) @ expanded_v
    check(torch.allclose(out, reference, atol=1e-5), f"GQA prefill after {context} tokens of context is attention "
          f"over K and V expanded to the query heads (max difference {(out - reference).abs().max():.2e})")
check(sorted(all_reduce) == [t * D_MODEL * 4 for t in (1, 2, 4, 8)],
      f"all_reduce.csv: the activations of 1 to 8 tokens in fp32, in bytes: {sorted(all_reduce)}")

# --- llsim calibrate fits from each file (and labels the block fitted).
calibrated("--profile", os.path.join(folder, "mlp.csv"), "gemm_efficiency", "gemm_half_tokens",
           "bandwidth_efficiency", "kernel_launch")
calibrated("--attention", os.path.join(folder, "attention.csv"), "attention_efficiency", "attention_overhead")
calibrated("--all-reduce", os.path.join(folder, "all_reduce.csv"), "link_latency", "link_efficiency")

# --- A serve run reads the profile: one request of 8 tokens, then one decode at 8 of context, on
# 8 GPUs. Vidur keeps compute and network profiles apart; the compute one is used here (the
# all-reduce was measured between 2 workers, not 8).
compute = os.path.join(scratch_dir(), "compute")
os.makedirs(compute)
for name in ("mlp.csv", "attention.csv"):
    shutil.copy(os.path.join(folder, name), compute)
LONE = [f"phases.chat.model={{preset: {MODEL}}}", "phases.chat.workload.input_tokens=8",
        "phases.chat.workload.output_tokens=2"]
chat, ops = operators(*LONE, f"phases.chat.iteration={{impl: operators, profile: {compute}}}")
rooflines_chat, rooflines = operators(*LONE)
if ops:
    check_close(ops["embedding"], (mlp[8]["emb"] + mlp[1]["emb"]) / 1e3, 1e-9, "embedding: the profile's, once")
    for name in ("input_layernorm", "attn_pre_proj", "attn_rope", "attn_post_proj", "post_attention_layernorm",
                 "mlp_up_proj", "mlp_act", "mlp_down_proj", "add"):
        check_close(ops[name], LAYERS * (mlp[8][name] + mlp[1][name]) / 1e3, 1e-9,
                    f"{name}: 32 layers x the profile's at 8 tokens and at 1")
    prefill, decode = attention[(True, 1, 8, 0)], attention[(False, 1, 0, 8)]
    check_close(ops["attn_prefill"], LAYERS * (prefill["attn_prefill"] + prefill["attn_kv_cache_save"]) / 1e3, 1e-9,
                "prefill attention: the chunk of 8 without context, with its KV save")
    check_close(ops["attn_decode"], LAYERS * (decode["attn_decode"] + decode["attn_kv_cache_save"]) / 1e3, 1e-9,
                "decode attention: batch 1 at 8 of context, with its KV save")
if ops and rooflines:
    check(ops["lm_head"] == rooflines["lm_head"] and ops["mlp_up_proj"] != rooflines["mlp_up_proj"],
          "the profile replaces the operators it has and keeps the LM head's roofline")
    check(chat["mean_ttft_s"] != rooflines_chat["mean_ttft_s"],
          f"the profile moves TTFT: {chat['mean_ttft_s']} against {rooflines_chat['mean_ttft_s']} s")

# The network profile on 2 GPUs: each layer's attention and MLP all-reduces take the profile's
# times at the prefill's 8 tokens (65,536 bytes in bf16, the size of 4 fp32 tokens measured) and
# at the decode's one (8,192 bytes, below the smallest size measured, 16,384: that size's time).
network = os.path.join(scratch_dir(), "network")
os.makedirs(network)
shutil.copy(os.path.join(folder, "all_reduce.csv"), network)
_, two = operators(*LONE, "platform.groups.gpu.gpu.count=2",
                   f"phases.chat.iteration={{impl: operators, profile: {network}}}")
if two:
    one_layer = (all_reduce[65536]["all_reduce"] + all_reduce[16384]["all_reduce"]) / 1e3
    check_close(two["attn_all_reduce"], LAYERS * one_layer, 1e-9, "TP2 attention all-reduces: the profile's")
    check_close(two["mlp_all_reduce"], LAYERS * one_layer, 1e-9, "TP2 MLP all-reduces: the profile's")

# llsim refuses the profile for a model of another shape, naming the column.
_, _, err = run("run", SCENARIO, "--out", os.path.join(scratch_dir(), "out"), "--set",
                "phases.chat.model={preset: llama3.1-8b}", "--set",
                f"phases.chat.iteration={{impl: operators, profile: {compute}}}", expect=2)
check("the profile was measured for n_kv_head 32; the model has kv_heads 8" in err, f"shape refused: {err}")

# --- The profiler refuses what it cannot measure, naming why, and an --out that holds a profile.
proc = profiler("--model", MODEL, "--tp", "8", "--device", "cpu", "--quick", "--out", folder)
check(proc.returncode != 0 and "already holds a profile (mlp.csv, attention.csv" in proc.stderr,
      f"a directory holding a profile is refused: {proc.stderr[-500:]}")
proc = profiler("--model", MODEL, "--tp", "8", "--device", "cpu", "--quick", "--out", "/proc/no/such/dir")
check(proc.returncode != 0 and "cannot make the directory" in proc.stderr and "Traceback" not in proc.stderr,
      f"an --out that cannot be made: {proc.stderr[-500:]}")
proc = profiler("--model", "mixtral-8x7b", "--device", "cpu", "--quick", "--out", scratch_dir())
check(proc.returncode != 0 and "mixtures of experts and MLA are not profiled" in proc.stderr,
      f"a mixture of experts is refused: {proc.stderr}")

finish()
