"""llsim calibrate: fits on the shipped Vidur profile with a small error and prints an iteration: block
that runs when pasted into a scenario; step times fit; --fit none checks; bad inputs and options
exit 2 naming the file and line, and write nothing."""
import os
import re

from harness import check, finish, run, scratch_dir, summary

A100 = ["--model", "preset: llama2-7b", "--gpu", "preset: a100-80gb-sxm"]
PROFILE = "traces/calibration/vidur/a100/llama-2-7b/mlp.csv"
CPU = "traces/calibration/vidur/cpu/a100/cpu_overheads.csv"

out = scratch_dir()
block_file = os.path.join(out, "block.yaml")
errors_file = os.path.join(out, "errors.csv")
_, text, _ = run("calibrate", *A100, "--profile", PROFILE, "--folds", "3", "--out", block_file, "--errors",
                 errors_file)
fit = float(re.search(r"error on the points fitted: mean ([0-9.]+)%", text).group(1))
held = float(re.search(r"held-out error \(3-fold, seed 1\): mean ([0-9.]+)%", text).group(1))
check(fit < 3 and held < 3, f"the 7B profile is fitted within 3% (fit {fit}%, held-out {held}%)")
check("the 10 worst points:" in text, "the worst points are listed when there are many")
with open(block_file) as f:
    block = f.read()
check(block.startswith("# fitted by llsim calibrate on " + PROFILE) and "iteration: {impl: operators, gemm_efficiency: "
      in block and "kernel_launch: " in block, f"--out writes the block: {block}")
with open(errors_file) as f:
    lines = f.read().splitlines()
check(lines[0] == "point,measured_s,predicted_s,error" and len(lines) == 10441, "--errors lists every point")
# The block pasted into a scenario runs.
mapping = block.splitlines()[1][len("iteration: "):]
run_out = scratch_dir()
run("run", "tests/inputs/serve_operators.yaml", "--quiet", "--out", run_out, "--set",
    "phases.chat.iteration=" + mapping)
check(summary(run_out)["phases"]["chat"]["completed"] == 1, "the calibrated block runs")

# The CPU profile: a line in batch size, and --fit none reports the error of given values.
_, text, _ = run("calibrate", *A100, "--cpu-overheads", CPU, "--folds", "0")
check("per point:" in text and "cpu_per_iteration: " in text and "cpu_per_sequence: " in text,
      f"a short input lists every point: {text}")
_, text, _ = run("calibrate", *A100, "--cpu-overheads", CPU, "--fit", "none", "--start",
                 "cpu_per_iteration: 10ms")
check("checked on " in text and "fitting nothing" in text and "cpu_per_iteration: 10ms" in text,
      f"--fit none checks the values given: {text}")
check(float(re.search(r"mean ([0-9.]+)%", text).group(1)) > 100, "10 ms of CPU per iteration is far off")

# Step times: the CPU time per iteration of four iterations of known GEMM coefficients.
steps = os.path.join(out, "steps.csv")
with open(steps, "w") as f:
    f.write("prefills,prefill_tokens,decodes,context,seconds\n1,512,0,0,0.05\n0,0,8,1000,0.02\n"
            "2,1000,4,300,0.09\n0,0,1,10,0.016\n")
_, text, _ = run("calibrate", *A100, "--steps", steps, "--fit", "cpu_per_iteration", "--folds", "2")
check("4 measurements, fitting cpu_per_iteration" in text and "held-out error (2-fold" in text,
      f"step times fit: {text}")
check(", scheduling: serial, cuda_graphs: false}" in text.splitlines()[-1],
      f"the block says the steps were priced in series at their own token counts: {text.splitlines()[-1]}")


def refused(text, *args, code=2):
    written = os.path.join(scratch_dir(), "block.yaml")
    extra = [] if "--out" in args else ["--out", written]
    _, printed, err = run("calibrate", *args, *extra, expect=code)
    check(text in err, f"error says {text!r}: {err.strip()}")
    check(not os.path.exists(written) and printed == "", f"nothing written or printed after {text!r}")


bad = os.path.join(out, "bad.csv")
with open(bad, "w") as f:
    f.write("prefills,prefill_tokens,decodes,context,seconds\n1,512,0,0,0.05\n1,512,0,0,-1\n")
refused(f"{bad}:3: column 'seconds': a measured time must be > 0", *A100, "--steps", bad)
with open(bad, "w") as f:
    f.write("prefills,prefill_tokens,decodes,context,seconds\n3,2,0,0,0.05\n")
refused(f"{bad}:2: prefills and prefill_tokens", *A100, "--steps", bad)
with open(bad, "w") as f:
    f.write("prefills,prefill_tokens,decodes,context,seconds\n0,0,0,0,0.05\n")
refused(f"{bad}:2: an iteration with no prefill and no decode", *A100, "--steps", bad)
with open(bad, "w") as f:
    f.write("prefills,prefill_tokens,decodes,seconds\n1,512,0,0.05\n")
refused("column 'context'", *A100, "--steps", bad)
refused("the profile was measured for n_embd 4096; the model has d_model 8192", "--model", "preset: llama2-70b",
        "--gpu", "preset: a100-80gb-sxm", "--profile", PROFILE)
refused("unknown coefficient 'gemm_eficiency'", *A100, "--profile", PROFILE, "--fit", "gemm_eficiency")
refused("no measurement depends on gemm_efficiency", *A100, "--cpu-overheads", CPU, "--fit", "gemm_efficiency")
refused("--folds (default 5) must be 0, or between 2 and the 13 measurements", *A100, "--cpu-overheads", CPU,
        "--folds", "1")
refused("--folds 2 leaves 2 measurements to fit 4 coefficients", *A100, "--steps", steps, "--folds", "2")
refused("--fit names cpu_per_iteration twice", *A100, "--cpu-overheads", CPU, "--fit",
        "cpu_per_iteration,cpu_per_iteration")
refused("expects coefficients, or none", *A100, "--cpu-overheads", CPU, "--fit", "")
refused("--out /no/such/dir/block.yaml: cannot write there (no directory /no/such/dir)", *A100, "--cpu-overheads",
        CPU, "--out", "/no/such/dir/block.yaml")
refused("calibrate needs measurements", *A100)
refused("excludes", *A100, "--profile", PROFILE, "--cpu-overheads", CPU)
refused("--model:1:10: model.preset: unknown model 'nope'", "--model", "preset: nope", "--gpu", "preset: a100-80gb-sxm", "--profile", PROFILE)
refused("--start cpu_per_iteration: must be >= 0", *A100, "--cpu-overheads", CPU, "--start", "cpu_per_iteration: -1s")

finish()
