"""The operators model's `scheduling: async` through llsim (tests/inputs/serve_operators.yaml, one
request of 4,000 tokens and 5 outputs on Llama-3-70B over 8 A100s): the prefill, after idle, pays
its CPU time in series; each decode that follows a step takes max(GPU, CPU - cpu_serial) +
cpu_serial, exactly; the operators' breakdown still adds up to the request's time; the default,
auto, is async on one pipeline stage and serial on several; cpu_serial with serial scheduling is
refused."""
import csv
import json
import os

from harness import check, check_close, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_operators.yaml"
FIVE = "phases.chat.workload.output_tokens=5"
EXACT = 1e-9


def simulate(*sets):
    """(TTFT, mean decode gap, operators' total seconds) of the lone request."""
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out, "--set", FIVE]
    for s in sets:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "chat_requests.csv")) as f:
        r = next(csv.DictReader(f))
    with open(os.path.join(out, "chat_operators.csv")) as f:
        operators = sum(float(o["seconds"]) for o in csv.DictReader(f))
    return float(r["ttft_s"]), float(r["tpot_s"]), operators


for cpu_ms, serial_ms in [(0.8679, 0.0), (20.0, 2.0), (60.0, 2.0), (0.8679, 5.0)]:
    cpu = cpu_ms / 1e3 + 0.03621e-3  # cpu_per_iteration + cpu_per_sequence x 1 sequence
    keys = [f"phases.chat.iteration.cpu_per_iteration={cpu_ms}ms"]
    ttft, gap, ops = simulate(*keys, "phases.chat.iteration.scheduling=serial")
    gpu = gap - cpu  # a decode's GPU time, the same in both
    a_ttft, a_gap, a_ops = simulate(*keys, "phases.chat.iteration.scheduling=async",
                                    f"phases.chat.iteration.cpu_serial={serial_ms}ms")
    serial = min(cpu, serial_ms / 1e3)
    what = f"CPU {cpu * 1e3:.4f} ms, cpu_serial {serial_ms} ms, GPU {gpu * 1e3:.4f} ms"
    check_close(a_ttft, ttft, EXACT, f"{what}: the prefill after idle pays its CPU in series")
    check_close(a_gap, max(gpu, cpu - serial) + serial, EXACT, f"{what}: a decode takes max(GPU, CPU - serial) + serial")
    check_close(a_ops, a_ttft + 4 * a_gap, EXACT, f"{what}: the operators add up to the request's time")
    check_close(ops, ttft + 4 * gap, EXACT, f"{what}: serial, too")
    if serial_ms == 0:
        check(simulate(*keys)[:2] == (a_ttft, a_gap), f"{what}: the default is async on one stage")

# On two pipeline stages the default runs serial.
STAGES = ["phases.chat.system.pp=2", "phases.chat.system.tp=4"]
check(simulate(*STAGES) == simulate(*STAGES, "phases.chat.iteration.scheduling=serial"),
      "the default is serial on two pipeline stages")

for extra in ([], STAGES):
    _, _, err = run("run", SCENARIO, "--out", os.path.join(scratch_dir(), "out"), "--set",
                    "phases.chat.iteration.cpu_serial=1ms", "--set", "phases.chat.iteration.scheduling="
                    + ("serial" if not extra else "auto"), *sum((["--set", s] for s in extra), []), expect=2)
    check("cpu_serial: applies to asynchronous scheduling" in err, f"cpu_serial with serial scheduling is refused: {err}")
_, _, err = run("validate", SCENARIO, "--set", "phases.chat.iteration.scheduling=async", "--set",
                "phases.chat.system.pp=2", "--set", "phases.chat.system.tp=4", expect=2)
check("async with pipeline stages is not modelled" in err, f"async with pp 2 is refused: {err}")

# Mooncake's early rejection estimates a decode step as the engine runs it: with a CPU time of
# 90 ms, in series every step misses the 100 ms TBT and every request is turned away; overlapped,
# steps take about max(GPU, 90 ms) and requests are admitted.
MOONCAKE = ["platform.groups.prefill.gpu.preset=a100-80gb-sxm", "platform.groups.decode.gpu.preset=a100-80gb-sxm",
            "phases.chat.iteration.impl=operators", "phases.chat.iteration.cpu_per_iteration=90ms",
            "phases.chat.system.early_rejection=true", "phases.chat.workload.duration=30s",
            "phases.chat.slo.ttft=600s"]
rejected = {}
for scheduling in ("serial", "async"):
    out = scratch_dir()
    args = ["run", "tests/inputs/serve_mooncake.yaml", "--quiet", "--out", out,
            "--set", f"phases.chat.iteration.scheduling={scheduling}"]
    for s in MOONCAKE:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "summary.json")) as f:
        chat = json.load(f)["phases"]["chat"]
    rejected[scheduling] = (chat["rejected"], chat["requests"])
check(rejected["serial"][0] == rejected["serial"][1] and rejected["async"][0] == 0,
      f"early rejection follows the scheduling (rejected of requests): {rejected}")

finish()
