"""A run whose operators model times a GPU with figures not measured on it (kernel coefficients
assumed where the GPU has no fitted ones; attention, CPU and link figures fitted on Vidur's A100
carried over to another GPU) says so once, in the console and in report.md, naming them and the
profiler and calibrate commands; the A100 preset, a scenario that gives every figure, or a profile
that measured them says nothing. Sweeps and plans say it once too; a disabled phase does not."""
import os

from harness import ROOT, check, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_operators.yaml"
PROFILE = "traces/calibration/vidur/a100/llama-2-7b"
NOTE = "llsim: note: the operators model times "


def run_with(*sets, command="run"):
    out = scratch_dir()
    args = [command, SCENARIO] + (["--quiet", "--out", out] if command == "run" else [])
    for s in sets:
        args += ["--set", s]
    _, stdout, stderr = run(*args)
    report = open(os.path.join(out, "report.md")).read() if command == "run" else ""
    return stderr, report, stdout


# --- The A100 preset carries figures fitted on Vidur's A100 profile: nothing to say.
err, report, _ = run_with()
check(NOTE not in err and "## Notes" not in report, f"a fitted GPU gives no note: {err!r}")

# --- The H200 has no fitted figure: the note, once, in both places, with the commands.
err, report, _ = run_with("platform.groups.gpu.gpu.preset=h200")
check(err.count(NOTE) == 1, f"the H200 run says so once in the console: {err!r}")
note = err[err.find(NOTE) + len("llsim: note: "):].splitlines()[0]
check("GPU 'h200' with assumed kernel coefficients (gemm_efficiency, gemm_half_tokens, bandwidth_efficiency, "
      "kernel_launch) and figures fitted on Vidur's A100 measurements (attention_efficiency, attention_overhead, "
      "cpu_per_iteration, cpu_per_sequence, link_latency, link_efficiency)" in note,
      f"the note names the GPU, the four assumed coefficients and the six carried over: {note}")
check("`python3 analysis/profile/profile_gpu.py --model llama3-70b --tp 8 --out DIR`" in note and
      "`llsim calibrate --model 'preset: llama3-70b' --gpu 'preset: h200, count: 8' --profile DIR/mlp.csv`" in note,
      f"the note names the profiler and calibrate commands for this model, TP and GPU: {note}")
check("## Notes\n\n- " + note + "\n" in report, "report.md carries the same note under Notes")

# --- A mixture of experts: the profiler does not measure it, and the note says so.
err, _, _ = run_with("platform.groups.gpu.gpu.preset=h200", "phases.chat.model={preset: mixtral-8x7b}")
check("measures the catalogue's dense models only" in err and "profile_gpu.py --model" not in err,
      f"an MoE model's note sends the user to a dense model's profile: {err!r}")

# --- validate says it too (before anything runs).
err, _, _ = run_with("platform.groups.gpu.gpu.preset=h200", command="validate")
check(err.count(NOTE) == 1, f"llsim validate says so: {err!r}")

# --- The H100 preset has fitted kernel coefficients: only the carried figures are named.
err, _, _ = run_with("platform.groups.gpu.gpu.preset=h100-sxm")
check("GPU 'h100-sxm' with figures fitted on Vidur's A100 measurements (attention_efficiency" in err and
      "assumed kernel" not in err, f"the H100: the carried figures alone: {err!r}")

# --- The coefficients the scenario gives are not assumptions: the note names only the others,
# and none once all ten are given.
err, _, _ = run_with("platform.groups.gpu.gpu.preset=h200", "phases.chat.iteration.gemm_efficiency=0.7",
                     "phases.chat.iteration.kernel_launch=5us")
check("(gemm_half_tokens, bandwidth_efficiency)" in err, f"two given, two named: {err!r}")
err, report, _ = run_with("platform.groups.gpu.gpu.preset=h200", "phases.chat.iteration.gemm_efficiency=0.7",
                          "phases.chat.iteration.kernel_launch=5us", "phases.chat.iteration.gemm_half_tokens=100",
                          "phases.chat.iteration.bandwidth_efficiency=0.8")
check("assumed kernel" not in err and "(attention_efficiency" in err, f"all four given: the carried remain: {err!r}")
CARRIED = ["phases.chat.iteration.attention_efficiency=0.3", "phases.chat.iteration.attention_overhead=10us",
           "phases.chat.iteration.cpu_per_iteration=1ms", "phases.chat.iteration.cpu_per_sequence=10us",
           "phases.chat.iteration.link_latency=3us", "phases.chat.iteration.link_efficiency=0.5"]
err, report, _ = run_with("platform.groups.gpu.gpu.preset=h200", "phases.chat.iteration.gemm_efficiency=0.7",
                          "phases.chat.iteration.kernel_launch=5us", "phases.chat.iteration.gemm_half_tokens=100",
                          "phases.chat.iteration.bandwidth_efficiency=0.8", *CARRIED)
check(NOTE not in err and "## Notes" not in report, f"all ten given: no note: {err!r}")

# --- The GPU's own keys count as measured figures too (a catalogue entry of the user's own).
err, _, _ = run_with("platform.groups.gpu.gpu={preset: h200, count: 8, gemm_efficiency: 0.7, "
                     "gemm_half_tokens: 100, bandwidth_efficiency: 0.8, kernel_launch: 5us}", *CARRIED)
check(NOTE not in err, f"figures given on the GPU: no note: {err!r}")

# --- The roofline model's figures are its own keys, documented as assumptions: no note here.
err, _, _ = run_with("platform.groups.gpu.gpu.preset=h200", "phases.chat.iteration={impl: roofline}")
check(NOTE not in err, f"the roofline model gives no operators note: {err!r}")

# --- A profile that measured the attention's GEMMs times them: no kernel coefficient is named
# (Vidur's Llama-2-7B profile, mlp.csv only, here on an H200 of one GPU); the attention and CPU
# figures still are.
one_h200 = ["platform.groups.gpu.gpu={preset: h200, count: 1}", "phases.chat.model={preset: llama2-7b}"]
err, _, _ = run_with(*one_h200)
check("--model llama2-7b --tp 1 --out DIR" in err, f"without the profile, the note: {err!r}")
err, _, _ = run_with(*one_h200, "phases.chat.iteration={impl: operators, profile: " + os.path.join(ROOT, PROFILE) + "}")
check("assumed kernel" not in err and "(attention_efficiency, attention_overhead, cpu_per_iteration, "
      "cpu_per_sequence)" in err, f"a profile with the GEMMs: the kernel coefficients are measured: {err!r}")

# --- A disabled phase tells nothing: it never runs.
folder = scratch_dir()
with open(SCENARIO) as f:
    text = f.read()
two = text + """  - name: other
    kind: serve
    model: {preset: llama3-70b}
    system: {impl: vllm, instances: gpu}
    iteration: {impl: roofline}
    workload: {requests: 1, arrival: 1s, input_tokens: 100, output_tokens: 1}
    slo: {ttft: 5s, tbt: 100ms}
"""
path = os.path.join(folder, "two.yaml")
with open(path, "w") as f:
    f.write(two)
_, _, err = run("validate", path, "--set", "platform.groups.gpu.gpu.preset=h200", "--set", "phases.chat.enabled=false")
check(NOTE not in err, f"a disabled phase on an uncalibrated GPU says nothing: {err!r}")

# --- Two groups of one GPU type (Mooncake's prefill and decode) give one note.
_, _, err = run("validate", "tests/inputs/serve_mooncake.yaml", "--set", "phases.chat.iteration={impl: operators}",
                "--set", "platform.groups.prefill.gpu={preset: h200, count: 8}", "--set",
                "platform.groups.decode.gpu={preset: h200, count: 8}")
check(err.count(NOTE) == 1, f"prefill and decode on H200s: one note: {err!r}")

# --- A sweep and a plan say it once on the console and in their report.md.
out = scratch_dir()
_, _, err = run("sweep", SCENARIO, "--out", out, "--set", "platform.groups.gpu.gpu.preset=h200", "--grid",
                "phases.chat.workload.input_tokens=1000,2000", "--quiet")
check(err.count("llsim sweep: note: the operators model times GPU 'h200'") == 1, f"the sweep says it once: {err!r}")
with open(os.path.join(out, "report.md")) as f:
    check("## Notes\n\n- the operators model times GPU 'h200'" in f.read(), "the sweep's report.md has it")
out = scratch_dir()
_, _, err = run("plan", SCENARIO, "--out", out, "--set", "platform.groups.gpu.gpu.preset=h200", "--axis",
                "platform.groups.gpu.count=1..2", "--target", "chat.mean_ttft_s<=100", "--quiet")
check(err.count("llsim plan: note: the operators model times GPU 'h200'") == 1, f"the plan says it once: {err!r}")
with open(os.path.join(out, "report.md")) as f:
    check("## Notes\n\n- the operators model times GPU 'h200'" in f.read(), "the plan's report.md has it")

finish()
