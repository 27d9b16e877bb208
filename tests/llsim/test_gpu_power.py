"""GPU power against utilisation (docs/results/gpu_power.md): analysis/fit_gpu_power.py fits the
A100's idle share to Splitwise's measured power of Llama-2-70B at TP 2 and 8 and predicts TP 4 and
BLOOM-176B within 10% on average, far better than GPUs at TDP whenever busy; the a100-80gb-sxm
preset carries the fitted idle, and llsim's energy uses it; a measured power table replaces the
linear law, and its closed form holds through llsim."""
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
# A measured power table instead of the linear law. With the roofline at efficiency 0.8 for
# compute and HBM and no overhead, every iteration runs its GPUs at utilisation 0.8 exactly.
# tests/inputs/gpu_power_table.csv: 50 W at 0, 300 W at 0.5, 400 W at 1 (an example, not a
# measurement): at 0.8, 360 W; the linear law between 50 and 400 W would give 330 W.
at_08 = ["phases.chat.iteration={impl: roofline, mfu: 0.8, hbm_efficiency: 0.8}"]
table = summary(run_out("tests/inputs/serve_single.yaml", *at_08,
                        "platform.groups.gpu.gpu.power_table=gpu_power_table.csv"))
bill = table["accounting"]["phases"]["chat"]["groups"]["gpu"]
held_s, busy_s = bill["host_hours"] * 3600, bill["busy_host_hours"] * 3600
check_close(bill["gpu_load_hours"], bill["busy_host_hours"] * (360 - 50) / (400 - 50), 1e-12,
            "GPU load = busy x (power(0.8) - idle) / (full - idle)")
check_close(table["phases"]["chat"]["energy_kwh"], (held_s * 8 * 50 + busy_s * 8 * (360 - 50)) / KWH, 1e-12,
            "energy = held x 8 x 50 W + busy x 8 x (360 - 50) W")
check(table["accounting"]["prices"]["groups"]["gpu"]["idle_W"] == 8 * 50 and
      table["accounting"]["prices"]["groups"]["gpu"]["busy_W"] == 8 * 400,
      f"the table's ends are the GPUs' idle and full draws: {table['accounting']['prices']['groups']['gpu']}")
table_out = run_out("tests/inputs/serve_single.yaml", "platform.groups.gpu.gpu.power_table=gpu_power_table.csv")
check("measured power table" in open(table_out + "/report.md").read(), "report.md says the GPUs' power is a table")
# A table of its two ends is the linear law.
two_rows = summary(run_out("tests/inputs/serve_single.yaml", *at_08,
                           "platform.groups.gpu.gpu.power_table=gpu_power_linear.csv"))
linear = summary(run_out("tests/inputs/serve_single.yaml", *at_08, "platform.groups.gpu.gpu.tdp=400W",
                         "platform.groups.gpu.gpu.idle=50W"))
check_close(two_rows["run"]["energy_kwh"], linear["run"]["energy_kwh"], 1e-12,
            "a table of (0, 50 W) and (1, 400 W) = the linear law between idle 50 W and tdp 400 W")
# On a preset, the table replaces the preset's tdp and idle (resolved.yaml shows neither).
preset_out = run_out("tests/inputs/serve_gpu_preset.yaml", "platform.groups.gpu.gpu.power_table=gpu_power_table.csv")
resolved = open(preset_out + "/resolved.yaml").read()
check("power_table" in resolved and "tdp:" not in resolved and "idle:" not in resolved,
      "resolved.yaml: the table, not the preset's tdp and idle")
finish()
