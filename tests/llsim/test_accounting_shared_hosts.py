"""Cost and energy where work shares hosts or is charged rather than simulated, against closed
forms: a storage service on a GPU host draws no GPU power for its disk work; a phase and a service
busy on one host at once are billed at most the host's busy power over the run; a train phase's
replayed checkpoints (io_replay) cross the network and keep the file system busy as the one
measured did. The prices and powers in the inputs are assumptions."""
from harness import check, check_close, finish, run_out, summary

EXACT = 1e-12
KWH = 3600e3
BASE = "tests/inputs/accounting_shared_hosts.yaml"

# The service alone on the GPU host: idle power all run, the host's busy power while it serves;
# its 8 GPUs idle (70 W), never at TDP.
s = summary(run_out(BASE, "phases.train.enabled=false"))
T, u = s["simulated_time_s"], s["services"]["fs"]["utilisation"]
fs = s["accounting"]["services"]["fs"]["groups"]["gpu"]
check(u > 0.9 and fs["gpu_load_hours"] == 0, f"fs serves ({u}) with no GPU load: {fs}")
check_close(s["services"]["fs"]["energy_kwh"], (T * (500 + 8 * 70) + u * T * (800 - 500)) / KWH, EXACT,
            "fs energy = T x (host idle + 8 GPUs idle) + busy x (host busy - idle)")

# Training computes on the same host meanwhile: both say they were busy about 10 s of a 10.03 s
# run. The host can only be busy once: the service's busy time is what training left.
s = summary(run_out(BASE))
T, u = s["simulated_time_s"], s["services"]["fs"]["utilisation"]
train = s["accounting"]["phases"]["train"]["groups"]["gpu"]
fs = s["accounting"]["services"]["fs"]["groups"]["gpu"]
check(train["busy_host_hours"] * 3600 + u * T > T, f"the two said more than the run: {train}, u={u}")
check_close(fs["busy_host_hours"] * 3600, T - train["busy_host_hours"] * 3600, EXACT,
            "fs busy = run - training's busy host-seconds")
gpu_energy = s["phases"]["train"]["energy_kwh"] + s["services"]["fs"]["energy_kwh"]
check(gpu_energy <= T * (800 + 8 * 700) / KWH * (1 + EXACT),
      f"the GPU host's energy ({gpu_energy} kWh) is at most all of it busy the whole run")

# Four checkpoints of 14 GB each; with io_replay auto the first is measured and three are charged.
# Their bytes cross gpu -> oss all the same, and the file system's busy time scales with them.
policy = "phases.train.checkpoint.policy={impl: every_n, iterations: 2}"
price = "accounting.network=[{from: gpu, to: oss, per_GB: 0.01}]"
runs = {r: summary(run_out("tests/inputs/accounting.yaml", policy, price, f"phases.train.checkpoint.io_replay={r}"))
        for r in ["auto", "always"]}
auto, always = runs["auto"], runs["always"]
check(auto["phases"]["train"]["io_replays"] == 1 and always["phases"]["train"]["io_replays"] == 4,
      "auto measures one checkpoint, always runs all four")
for r, run in runs.items():
    line = run["accounting"]["phases"]["train"]["network"]
    check(line == [{"from": "gpu", "to": "oss", "GB": 56, "per_GB": 0.01, "cost": 0.56}],
          f"io_replay {r}: 4 x 14 GB cross gpu -> oss: {line}")
pfs = auto["services"]["pfs"]
moved, charged = pfs["bytes"], pfs["charged_bytes_written"]
check(moved == 14e9 and charged == 42e9, f"auto moves one checkpoint and charges three: {moved}, {charged}")
busy = auto["accounting"]["services"]["pfs"]["groups"]["oss"]["busy_host_hours"] * 3600
check_close(busy, pfs["utilisation"] * 2 * auto["simulated_time_s"] * (moved + charged) / moved, EXACT,
            "pfs busy = its utilisation's host-seconds x (moved + charged bytes) / moved bytes")
busy_always = always["accounting"]["services"]["pfs"]["groups"]["oss"]["busy_host_hours"] * 3600
check_close(busy, busy_always, 1e-9, "with nothing contending, as busy as running all four")
finish()
