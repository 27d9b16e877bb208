"""GPU power against utilisation (docs/results/gpu_power.md): analysis/fit_gpu_power.py fits the
A100's idle share to Splitwise's measured power of Llama-2-70B at TP 2 and 8 and predicts TP 4 and
BLOOM-176B within 10% on average, far better than GPUs at TDP whenever busy; the a100-80gb-sxm
preset carries the fitted idle, and llsim's energy uses it."""
import re
import subprocess

from harness import LLSIM, ROOT, check, check_close, finish, run_out, summary

KWH = 3.6e6
proc = subprocess.run(["/usr/bin/python3", "analysis/fit_gpu_power.py"], cwd=ROOT, capture_output=True, text=True)
check(proc.returncode == 0, f"fit_gpu_power.py exits 0: {proc.stderr[-2000:]}")
m = re.search(r"summary: a ([0-9.]+), fit mean \|error\| ([0-9.]+)%, held-out mean \|error\| ([0-9.]+)% "
              r"\(GPUs at TDP whenever busy: ([0-9.]+)%\)", proc.stdout)
check(m is not None, f"the script states the fit and the prediction: {proc.stdout[-300:]}")
a, fit_err, held_err, at_tdp = (float(x) for x in m.groups())
check(0 < a < 1, f"idle share in (0, 1): {a}")
check(held_err < 10, f"held-out configurations predicted within 10% on average: {held_err}%")
check(held_err < at_tdp / 4, f"the linear law beats TDP-while-busy ({at_tdp}%) by 4x at least: {held_err}%")

catalogue = subprocess.run([LLSIM, "models", "--markdown"], capture_output=True, text=True).stdout
line = next((l for l in catalogue.splitlines() if l.startswith("- a100-80gb-sxm ")), "")
idle = re.search(r"\bidle ([0-9.]+)W", line)
check(idle is not None, f"the a100-80gb-sxm preset has an idle power: {line}")
if idle:
    check(abs(float(idle.group(1)) - a * 400) < 0.5, f"preset idle {idle.group(1)} W = fitted {a:.4f} x 400 W")

# The preset's idle power counts in a run: without it, the GPUs draw nothing while idle and
# tdp x load while busy; the difference is 8 x idle over held minus load host-seconds.
with_idle = summary(run_out("tests/inputs/serve_gpu_preset.yaml"))
without = summary(run_out("tests/inputs/serve_gpu_preset.yaml", "platform.groups.gpu.gpu.idle=0W"))
bill = with_idle["accounting"]["phases"]["chat"]["groups"]["gpu"]
held_s, load_s = bill["host_hours"] * 3600, bill["gpu_load_hours"] * 3600
check(load_s < held_s, f"the GPUs are loaded for part of the time they are held: {load_s} < {held_s}")
check_close(with_idle["run"]["energy_kwh"] - without["run"]["energy_kwh"], 8 * 123 * (held_s - load_s) / KWH, 1e-9,
            "preset idle 123 W: 8 x 123 W over held - load host-seconds")
finish()
