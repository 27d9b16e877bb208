"""Cost and energy through llsim against their closed forms (sim/accounting/bill.hpp):
hours x price, busy power x time at full use, idle power x time when idle, the storage integral of
bytes over time, PUE and the price of energy, serving billed while its instances are up, and
holders of one group at the same time splitting it. The prices in the inputs are assumptions."""
import os
import re

from harness import ROOT, check, check_close, finish, run_out, summary

EXACT = 1e-12
HOUR, KWH = 3600.0, 3.6e6


def accounting(scenario, *sets):
    s = summary(run_out(scenario, *sets))
    return s, s["accounting"]


# Training busy the whole phase: 4 hosts x 8 GPUs at tdp 700 W + host 800 W busy, 600 s.
s, a = accounting("tests/inputs/accounting.yaml")
train = s["phases"]["train"]
span = train["end_s"] - train["start_s"]
check(train["makespan_s"] == 600 and span == 600, f"train runs 600 s: {span}")
check_close(train["cost"], 4 * span / HOUR * 8 * 2.5, EXACT, "train cost = host-hours x 8 GPUs x 2.5 per GPU-hour")
check_close(train["energy_kwh"], 4 * (800 + 8 * 700) * span / KWH, EXACT,
            "train energy = (host busy + 8 x tdp) x time at full use")
bill = a["phases"]["train"]["groups"]["gpu"]
check(bill["busy_host_hours"] == bill["host_hours"], f"busy all along: {bill}")

# The cold store: idle all run, 3 hosts at 200 W, 10 TB held from the start.
cold = s["services"]["cold"]
T = s["simulated_time_s"]
check(cold["utilisation"] == 0, "the cold store serves nothing")
check_close(cold["energy_kwh"], 3 * 200 * T / KWH, EXACT, "idle store energy = idle power x time")
tb_months = 10e12 * T / (1e12 * 730 * HOUR)
check_close(a["services"]["cold"]["storage_TB_months"], tb_months, EXACT, "storage integral: 10 TB x run time")
check_close(cold["cost"], 3 * T / HOUR * 0.5 + tb_months * 20, EXACT,
            "cold cost = host-hours x 0.5 + TB-months x 20")
pfs = s["services"]["pfs"]
check_close(pfs["cost"], 2 * T / HOUR * 1.2, EXACT, "pfs servers billed the whole run")
check_close(s["run"]["cost"], train["cost"] + cold["cost"] + pfs["cost"], EXACT, "run = phases + services")
check_close(s["run"]["energy_kwh"], train["energy_kwh"] + cold["energy_kwh"] + pfs["energy_kwh"], EXACT,
            "run energy = phases + services")
check(a["prices"]["groups"]["gpu"] == {"price_basis": "per_gpu_hour", "price": 2.5, "per_host_hour": 20,
                                       "idle_W": 500 + 8 * 70, "busy_W": 800 + 8 * 700},
      f"prices used are reported: {a['prices']['groups']['gpu']}")
check(a["prices"]["storage"]["cold"] == {"per_TB_month": 20}, "storage price reported")

# PUE scales energy; the price of energy adds to cost.
s2, _ = accounting("tests/inputs/accounting.yaml", "accounting.pue=1.5", "accounting.per_kWh=0.2")
check_close(s2["phases"]["train"]["energy_kwh"], 1.5 * train["energy_kwh"], EXACT, "PUE 1.5 x energy")
check_close(s2["phases"]["train"]["cost"], train["cost"] + 0.2 * 1.5 * train["energy_kwh"], EXACT,
            "cost + 0.2 per facility kWh")
s3, _ = accounting("tests/inputs/accounting.yaml", "platform.groups.gpu.cost={per_hour: 7}")
check_close(s3["phases"]["train"]["cost"], 4 * span / HOUR * 7, EXACT, "per_hour: host-hours x 7")
s4, _ = accounting("tests/inputs/accounting.yaml", "services.cold.cost.per_TB_month=40")
check_close(s4["services"]["cold"]["cost"] - cold["cost"], tb_months * 20, EXACT, "per_TB_month 40: twice the storage")

# Idle time at idle power: a checkpoint every 5 iterations stops training; the GPUs idle meanwhile.
s5, a5 = accounting("tests/inputs/accounting.yaml", "phases.train.checkpoint.policy={impl: every_n, iterations: 5}")
t5 = s5["phases"]["train"]
held = 4 * (t5["end_s"] - t5["start_s"])
busy = 4 * 600.0
check(held > busy, f"checkpoints leave the GPUs idle for a while: held {held} s, busy {busy} s")
check_close(a5["phases"]["train"]["groups"]["gpu"]["busy_host_hours"] * HOUR, busy, EXACT,
            "busy host-seconds = hosts x compute time")
idle_W, busy_W = 500 + 8 * 70, 800 + 8 * 700
check_close(t5["energy_kwh"], (held * idle_W + busy * (busy_W - idle_W)) / KWH, EXACT,
            "energy = idle power x held time + (busy - idle) x busy time")
s6, _ = accounting("tests/inputs/accounting.yaml", "phases.train.checkpoint.policy={impl: every_n, iterations: 5}",
                   "platform.groups.gpu.gpu.idle=0W")
check_close(t5["energy_kwh"] - s6["phases"]["train"]["energy_kwh"], (held - busy) * 8 * 70 / KWH, 1e-9,
            "GPU idle 70 W: 8 x 70 W per host over the idle host-seconds")
s7, _ = accounting("tests/inputs/accounting.yaml", "platform.groups.gpu.gpu.tdp=350W")
check_close(train["energy_kwh"] - s7["phases"]["train"]["energy_kwh"], 4 * 8 * 350 * span / KWH, EXACT,
            "tdp 350 W instead of 700 W: 8 x 350 W less per busy host")

# Serving: billed while its instance is up; busy for its prefill and decodes. With the roofline at
# the same efficiency e for compute and HBM and no overhead, every iteration uses its GPUs' peaks at
# exactly e: the GPUs draw idle + e x (tdp - idle) while busy (sim/serve/cost/gpu_load.hpp).
serve_sets = ["platform.groups.gpu.cost={per_gpu_hour: 2}", "platform.groups.gpu.gpu.tdp=400W",
              "platform.groups.gpu.gpu.idle=50W", "phases.chat.iteration={impl: roofline, mfu: 0.8, hbm_efficiency: 0.8}"]
out8 = run_out("tests/inputs/serve_single.yaml", *serve_sets)
s8 = summary(out8)
a8 = s8["accounting"]
chat = s8["phases"]["chat"]
g = a8["phases"]["chat"]["groups"]["gpu"]
check_close(g["host_hours"] * HOUR, chat["instance_time_s"], EXACT, "serve holds its instance for instance_time_s")
check_close(chat["cost"], chat["instance_time_s"] / HOUR * 8 * 2, EXACT, "serve cost = instance-hours x 8 x 2")
with open(out8 + "/chat_requests.csv") as rows:
    request = dict(zip(*[line.strip().split(",") for line in rows]))
lone_busy = float(request["finish_s"]) - float(request["arrival_s"])  # alone: never waits
check_close(g["busy_host_hours"] * HOUR, lone_busy, EXACT, "busy = the lone request's time, arrival to last token")
check_close(g["gpu_load_hours"], 0.8 * g["busy_host_hours"], EXACT, "GPU load = 0.8 x busy at efficiency 0.8")
check_close(chat["energy_kwh"],
            (chat["instance_time_s"] * 8 * 50 + 0.8 * g["busy_host_hours"] * HOUR * 8 * 350) / KWH, EXACT,
            "serve energy = held x 8 x idle + 0.8 x busy x 8 x (tdp - idle)")
# Default roofline (mfu 0.5, hbm_efficiency 0.8): the compute-bound prefill loads the GPUs at 0.5,
# the memory-bound decodes at 0.8.
g_default = summary(run_out("tests/inputs/serve_single.yaml", *serve_sets[:3]))["accounting"]["phases"]["chat"]
load = g_default["groups"]["gpu"]["gpu_load_hours"] / g_default["groups"]["gpu"]["busy_host_hours"]
check(0.5 < load < 0.8, f"GPU load per busy second between the prefill's 0.5 and the decodes' 0.8: {load}")
# Instances of 2 GPUs on an 8-GPU host hold a quarter of it each: instance-seconds x 2/8 host-seconds.
s_tp = summary(run_out("tests/inputs/serve_single.yaml", *serve_sets, "phases.chat.system.tp=2"))
chat_tp, g_tp = s_tp["phases"]["chat"], s_tp["accounting"]["phases"]["chat"]["groups"]["gpu"]
check_close(g_tp["host_hours"] * HOUR, chat_tp["instance_time_s"] * 2 / 8, EXACT, "tp 2: host-s = instance-s x 2/8")
check_close(chat_tp["cost"], chat_tp["instance_time_s"] / HOUR * 2 * 2, EXACT, "tp 2: cost = instance-hours x 2 GPUs x 2")
check(g_tp["busy_host_hours"] <= g_tp["host_hours"], f"tp 2: busy within held: {g_tp}")
check(chat["output_tokens"] == 50, f"50 output tokens: {chat['output_tokens']}")
check_close(chat["cost_per_M_output_tokens"], chat["cost"] / 50e-6, EXACT, "cost per M output tokens")
check_close(chat["kwh_per_M_output_tokens"], chat["energy_kwh"] / 50e-6, EXACT, "kWh per M output tokens")

# Autoscaled serving pays for the instance time it held, not for the whole group all along.
s9, a9 = accounting("tests/inputs/autoscale.yaml", *serve_sets[:1])
for name, p in s9["phases"].items():
    if p["kind"] != "serve":
        continue
    hours = sum(b["host_hours"] for b in a9["phases"][name]["groups"].values())
    check_close(hours * HOUR, p["instance_time_s"], EXACT, f"{name}: billed host-seconds = instance_time_s")
    span9 = p["end_s"] - p["start_s"]
    check(hours * HOUR < span9 * 8, f"{name}: less than the whole group all along")

# Two phases on one client group at once split the overlap; a group nothing uses is not billed.
s10, a10 = accounting("tests/inputs/accounting_overlap.yaml")
f, sec = s10["phases"]["first"], s10["phases"]["second"]
overlap = min(f["end_s"], sec["end_s"]) - max(f["start_s"], sec["start_s"])
check(overlap > 0, f"the transfers overlap: {overlap} s")
own_f = f["end_s"] - f["start_s"] - overlap / 2
own_s = sec["end_s"] - sec["start_s"] - overlap / 2
check_close(a10["phases"]["first"]["groups"]["clients"]["host_hours"] * HOUR, 4 * own_f, EXACT,
            "first pays its time, half the overlap")
check_close(a10["phases"]["second"]["groups"]["clients"]["host_hours"] * HOUR, 4 * own_s, EXACT,
            "second pays its time, half the overlap")
union = max(f["end_s"], sec["end_s"]) - min(f["start_s"], sec["start_s"])
check_close(f["cost"] + sec["cost"], 4 * union / HOUR * 3.6, EXACT, "together: the clients once over the union")
check(a10["unbilled_groups"] == ["unused"], f"unused group not billed: {a10['unbilled_groups']}")
check_close(f["cost_per_TB"], f["cost"] / 0.08, EXACT, "cost per TB: 4 senders x 20 GB = 0.08 TB")

# A serve phase and a transfer on the same GPU hosts at once: billed once, at most the hosts'
# time over the union of the two phases.
s11, a11 = accounting("tests/inputs/accounting_serve_overlap.yaml")
chat, copy = s11["phases"]["chat"], s11["phases"]["copy"]
union = max(chat["end_s"], copy["end_s"]) - min(chat["start_s"], copy["start_s"])
hours = sum(g["host_hours"] for p in ("chat", "copy") for g in a11["phases"][p]["groups"].values())
check(hours * HOUR <= 2 * union * (1 + 1e-12), f"GPU hosts billed at most once: {hours * HOUR} of {2 * union} s")
check_close(chat["cost"] + copy["cost"], hours * 36, EXACT, "both pay 36 per host-hour for their part")

# The currency labels the outputs; a run without prices prints no cost line.
out = run_out("tests/inputs/accounting.yaml", "accounting.currency=EUR")
check(summary(out)["accounting"]["currency"] == "EUR", "currency in summary.json")
report = open(out + "/report.md").read()
check("## Cost and energy" in report and "EUR" in report and "2.5 EUR per_gpu_hour" in report,
      "report.md shows cost, energy and the prices in the currency")
# docs/accounting.md's table of work units names, for each phase kind, the cost_per_<unit>
# metrics the kind declares (docs/models.md, generated from the code).
def read(*path):
    with open(os.path.join(ROOT, *path), encoding="utf-8") as f:
        return f.read()


declared = {}
phases = read("docs", "models.md").split("## Interface `phase`", 1)[1].split("\n## ", 1)[0]
for section in phases.split("\n### `")[1:]:
    kind = section.split("`", 1)[0]
    declared[kind] = set(re.findall(r"\| `cost_per_(\w+)` \|", section))
per_unit = read("docs", "accounting.md").split("## Per unit of work", 1)[1].split("\n## ", 1)[0]
documented = {}
for kind, unit in re.findall(r"^\| (\w+) \| (.*) \|$", per_unit, re.M):
    if kind != "kind":
        documented[kind] = set(re.findall(r"`(\w+)`", unit)) or {unit.split()[0]}
check(len(documented) == 6 and documented == {k: v for k, v in declared.items() if v},
      f"docs/accounting.md's work units {documented} are the declared ones {declared}")
finish()
