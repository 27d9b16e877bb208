"""A serve phase's `vllm_config:` imports vLLM's engine arguments (as `vllm serve --config` reads
them) onto the keys that model them: the imported run is the run of those keys written out, every
argument moves the result as its key does, dashes and underscores name the same argument, a --set
wins over the config, the model may come from the config, and resolved.yaml holds the values in
force. Bad configs are in tests/bad/serve/vllm_*.yaml."""
import json
import os

from harness import check, finish, run, scratch_dir, summary

SCENARIO = "tests/inputs/serve_vllm_config.yaml"
CONFIG = "tests/inputs/vllm_configs/llama2_7b.yaml"
# The same phase written with llsim's keys (the config's host, port and bfloat16 change nothing;
# prefill_chunk is vLLM's default, no cap per prompt but the token budget).
SPELLED_OUT = ["phases.chat.model={preset: llama2-7b}", "phases.chat.system.tp=1",
               "phases.chat.system.prefix_caching=false",
               "phases.chat.batching={max_batch_size: 64, max_batch_tokens: 2048, gpu_memory_utilization: 0.85, "
               "block_size: 16, max_model_len: 4096, prefill_chunk: 2048}"]


def metrics(scenario, *sets):
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return summary(out)["phases"]["chat"], out


def scenario_with_config(lines, drop_vllm=False):
    """A copy of the scenario beside a config of `lines`; or, with drop_vllm, with no config at all."""
    folder = scratch_dir()
    with open(SCENARIO) as f:
        text = f.read()
    if drop_vllm:
        text = text.replace("    vllm_config: vllm_configs/llama2_7b.yaml\n", "")
    else:
        text = text.replace("vllm_configs/llama2_7b.yaml", "config.yaml")
        with open(os.path.join(folder, "config.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
    path = os.path.join(folder, "scenario.yaml")
    with open(path, "w") as f:
        f.write(text)
    return path


with open(CONFIG) as f:
    BASE = [line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")]


def with_arguments(arguments):
    """The shipped config with these arguments replaced (or added)."""
    lines = BASE
    for name, value in arguments.items():
        lines = [line for line in lines if not line.replace("_", "-").startswith(name + ":")] + [f"{name}: {value}"]
    return lines


def with_argument(name, value):
    return with_arguments({name: value})


# --- The import is the scenario written with llsim's keys: the same summary.
imported, imported_out = metrics(SCENARIO)
plain = scenario_with_config([], drop_vllm=True)
spelled, _ = metrics(plain, *SPELLED_OUT)
check(imported == spelled, "the imported config runs as the same keys written out")
check(imported["completed"] == 200, f"every request completes: {imported['completed']}")

# --- resolved.yaml holds the values in force, and runs again to the same figures.
resolved = os.path.join(imported_out, "resolved.yaml")
with open(resolved) as f:
    text = f.read()
check("vllm_config" not in text, "resolved.yaml holds the imported keys, not the config's name")
for key in ("max_batch_size: 64", "max_batch_tokens: 2048", "gpu_memory_utilization: 0.85", "max_model_len: 4096",
            "preset: llama2-7b"):
    check(key in text, f"resolved.yaml has {key}")
again, _ = metrics(resolved)
check(again == imported, "resolved.yaml reproduces the run")

# --- Each argument moves the result exactly as the key that models it (and moves it).
cases = [
    ({"max-num-seqs": "4"}, ["phases.chat.batching.max_batch_size=4"]),
    ({"max-num-batched-tokens": "256"}, ["phases.chat.batching.max_batch_tokens=256",
                                         "phases.chat.batching.prefill_chunk=256"]),
    ({"gpu-memory-utilization": "0.2"}, ["phases.chat.batching.gpu_memory_utilization=0.2"]),
    ({"num-gpu-blocks-override": "300", "block-size": "64"},
     ["phases.chat.batching.kv_blocks=300", "phases.chat.batching.block_size=64"]),
    ({"max-model-len": "650"}, ["phases.chat.batching.max_model_len=650"]),
    ({"num-gpu-blocks-override": "60"}, ["phases.chat.batching.kv_blocks=60"]),
    ({"long-prefill-token-threshold": "64"}, ["phases.chat.batching.prefill_chunk=64"]),
    ({"tensor-parallel-size": "2"}, ["phases.chat.system.tp=2"]),
    ({"dtype": "float32"}, ["phases.chat.model.dtype_bytes=4"]),
    ({"async-scheduling": "false"}, ["phases.chat.iteration.scheduling=serial"]),
    ({"max-cudagraph-capture-size": "4"}, ["phases.chat.iteration.cuda_graph_max_tokens=4"]),
]
for arguments, keys in cases:
    moved, _ = metrics(scenario_with_config(with_arguments(arguments)))
    own, _ = metrics(plain, *SPELLED_OUT, *keys)
    check(moved == own, f"{arguments} runs as {keys}")
    check(moved != imported, f"{arguments} moves the result ({moved['mean_ttft_s']} vs {imported['mean_ttft_s']})")
# block-size on its own moves the result where the block count binds (300 blocks of 16 tokens
# against 300 of 64).
blocks_of_16, _ = metrics(scenario_with_config(with_argument("num-gpu-blocks-override", "300")))
blocks_of_64, _ = metrics(scenario_with_config(with_arguments({"num-gpu-blocks-override": "300", "block-size": "64"})))
check(blocks_of_16 != blocks_of_64, "block-size moves the result where the blocks bind")

# Pipeline stages, preemption by swap and prefix caching need their own scenarios' conditions:
# their keys are checked to land where they belong.
for name, value, key, expected in [("pipeline-parallel-size", "2", "system", "pp: 2"),
                                   ("preemption-mode", "swap", "batching", "preemption: swap"),
                                   ("swap-space", "8", "batching", "swap_space: 8GiB"),
                                   ("enable-prefix-caching", "true", "system", "prefix_caching: true")]:
    lines = with_arguments({name: value, "preemption-mode": "swap"} if name == "swap-space" else {name: value})
    _, out = metrics(scenario_with_config(lines))
    with open(os.path.join(out, "resolved.yaml")) as f:
        check(expected in f.read(), f"{name}: {value} resolves to {key} {expected}")

# --- vLLM V1's defaults for what the config leaves out, where llsim's differ: one GPU per instance
# (not the host's 2), prefix caching on, and a prompt's chunk capped by the token budget alone
# (long-prefill-token-threshold 0 says the same).
left_out = [line for line in BASE if not line.startswith(("tensor-parallel-size", "enable-prefix-caching"))]
defaults, out = metrics(scenario_with_config(left_out))
with open(os.path.join(out, "resolved.yaml")) as f:
    text = f.read()
check("tp: 1" in text and "prefix_caching: true" in text and "prefill_chunk: 2048" in text,
      "vLLM's defaults: tp 1, prefix caching on, prefill_chunk = max-num-batched-tokens")
check(defaults == metrics(plain, *SPELLED_OUT, "phases.chat.system.prefix_caching=true")[0],
      "the defaults run as those keys")
zero, _ = metrics(scenario_with_config(with_argument("long-prefill-token-threshold", "0")))
check(zero == imported, "long-prefill-token-threshold 0 is vLLM's default, no cap but the budget")
# A key the scenario gives keeps its value.
_, out = metrics(scenario_with_config(left_out), "phases.chat.system.tp=2")
with open(os.path.join(out, "resolved.yaml")) as f:
    check("tp: 2" in f.read(), "a --set of tp is not replaced by vLLM's default")

# --- swap-space is used by preemption by swap alone (vLLM V1 has none; V0 reserves it anyway).
_, out = metrics(scenario_with_config(with_argument("swap-space", "8")))
with open(os.path.join(out, "resolved.yaml")) as f:
    check("swap_space" not in f.read(), "swap-space under preemption by recompute changes nothing")

# --- Refused with the reason: chunked prefill off (V1 then mixes whole prompts with decodes, which
# no llsim scheduler does), expert parallelism without the operators model, a block size vLLM
# refuses, and a model named twice.
for lines, text in [(with_argument("enable-chunked-prefill", "false"), "false is not modelled"),
                    (with_argument("block-size", "7"), "a block size of 1, 8, 16, 32, 64 or 128 tokens"),
                    (with_argument("enforce-eager", "true"), "an eager engine pays the CPU's launch of every kernel"),
                    (with_argument("enable-expert-parallel", "true"), "modelled by the operators iteration model"),
                    (with_argument("max-cudagraph-capture-size", "64"),
                     "max-cudagraph-capture-size is modelled by the operators iteration model")]:
    sets = ["phases.chat.iteration={impl: roofline}"] if "operators" in text else []
    args = ["validate", scenario_with_config(lines)]
    for s in sets:
        args += ["--set", s]
    _, _, err = run(*args, expect=2)
    check("config.yaml:" in err and text in err, f"refused: {text}: {err}")
_, _, err = run("validate", scenario_with_config(with_argument("enable-expert-parallel", "false")), "--set",
                "phases.chat.iteration={impl: roofline}")
check(err == "", f"enable-expert-parallel false, vLLM's default, needs no operators model: {err}")
_, _, err = run("validate", scenario_with_config(BASE), "--set",
                "phases.chat.model={params: 7e9, layers: 32, d_model: 4096, kv_heads: 32, head_dim: 128}", expect=2)
check("but the phase gives its model by its shape" in err, f"a model by shape and a named one: {err}")

# --- An error about an imported value names its own argument and line (not the first of its section).
lines = [line for line in BASE if not line.startswith("gpu-memory-utilization")] + ["gpu-memory-utilization: 1.5"]
_, _, err = run("validate", scenario_with_config(lines), expect=2)
check(f"config.yaml:{len(lines)}:25: gpu-memory-utilization: phases[0].batching.gpu_memory_utilization" in err,
      f"the error names gpu-memory-utilization's line: {err}")

# --- vLLM's --async-scheduling and --api-server-count land on the keys that model them.
_, out = metrics(scenario_with_config(with_arguments({"async-scheduling": "true", "api-server-count": "3"})))
with open(os.path.join(out, "resolved.yaml")) as f:
    text = f.read()
check("scheduling: async" in text and "processes: 3" in text, "async-scheduling and api-server-count imported")
_, _, err = run("validate", scenario_with_config(with_argument("async-scheduling", "true")), "--set",
                "phases.chat.iteration={impl: roofline}", expect=2)
check("async scheduling is modelled by the operators iteration model" in err, f"async without operators: {err}")

# --- A phase without an iteration section (the roofline): arguments of the operators model are
# refused where they would change it, and taken at its default.
def without_iteration(lines):
    path = scenario_with_config(lines)
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(text.replace("    iteration: {impl: operators}\n", ""))
    return path


_, _, err = run("validate", without_iteration(with_argument("max-cudagraph-capture-size", "64")), expect=2)
check("config.yaml:" in err and "max-cudagraph-capture-size is modelled by the operators iteration model" in err,
      f"no iteration section: max-cudagraph-capture-size refused, located: {err}")
_, _, err = run("validate", without_iteration(with_argument("enable-expert-parallel", "false")))
check(err == "", f"no iteration section: enable-expert-parallel false taken: {err}")

# --- Dashes and underscores name the same argument.
dashed, _ = metrics(scenario_with_config(with_argument("max-num-seqs", "4")))
underscored, _ = metrics(scenario_with_config(
    [line for line in BASE if not line.startswith("max-num-seqs")] + ["max_num_seqs: 4"]))
check(dashed == underscored, "max_num_seqs is max-num-seqs")

# --- A --set of the same key wins over the config, as vLLM's command line over its --config.
set_wins, _ = metrics(SCENARIO, "phases.chat.batching.max_batch_size=4")
check(set_wins == dashed, "--set max_batch_size=4 wins over the config's max-num-seqs: 64")

# --- Arguments without effect on the figures are taken; data-parallel-size 1 is the default.
quiet, _ = metrics(scenario_with_config(BASE + ["served-model-name: chat", "disable-log-requests: true",
                                                "data-parallel-size: 1", "kv-cache-dtype: auto",
                                                "scheduling-policy: fcfs", "enforce-eager: false"]))
check(quiet == imported, "API server arguments, data-parallel-size 1, auto KV dtype and CUDA graphs change nothing")

# --- An unmodelled argument: exit 2, named, nothing written.
out = os.path.join(scratch_dir(), "out")
_, _, err = run("run", scenario_with_config(BASE + ["quantization: fp8"]), "--out", out, expect=2)
check("config.yaml:" in err and "vLLM argument 'quantization' is not modelled by llsim" in err,
      f"quantization is named: {err}")
check(not os.path.exists(out), "no output for a refused config")

# --- The model must be the phase's when both give one.
_, _, err = run("validate", scenario_with_config(with_argument("model", "Qwen/Qwen3-8B")), "--set",
                "phases.chat.model={preset: llama2-7b}", expect=2)
check("'Qwen/Qwen3-8B' is the catalogue's qwen3-8b, but the phase serves llama2-7b" in err, f"model clash: {err}")
_, _, err = run("validate", scenario_with_config(with_argument("model", "/models/Llama-2-7b-hf/")), "--set",
                "phases.chat.model={preset: llama2-7b}")
check(err == "", f"a local directory named after the release is the same model: {err}")
_, _, err = run("validate", scenario_with_config(with_arguments({"model": "meta-llama/Llama-3.3-70B-Instruct",
                                                                 "tensor-parallel-size": "8"})),
                "--set", "phases.chat.model={preset: llama3.1-70b}", "--set", "platform.groups.gpu.gpu.count=8")
check("is the catalogue's" not in err, f"Llama 3.3 70B has Llama 3.1 70B's shape: {err}")

finish()
