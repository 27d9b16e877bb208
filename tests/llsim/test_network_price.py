"""A network price per GB between named host groups (docs/accounting.md, "Network"), through llsim
against its closed form: the bytes a phase's work delivered from one group to another, / 1e9, x the
price of that direction. Prices in the inputs are assumptions."""
from harness import check, check_close, finish, run_out, summary

EXACT = 1e-12
PRICED = "accounting.network=[{from: clients, to: oss, per_GB: 0.05}, {from: oss, to: clients, per_GB: 1}]"

# Two transfers of 4 senders x 20 GB and x 10 GB from `clients` into storage on `oss`.
plain = summary(run_out("tests/inputs/accounting_overlap.yaml"))
out = run_out("tests/inputs/accounting_overlap.yaml", PRICED)
priced = summary(out)
bills = priced["accounting"]["phases"]
for name, GB in (("first", 80), ("second", 40)):
    lines = bills[name].get("network", [])
    check(len(lines) == 1 and lines[0]["from"] == "clients" and lines[0]["to"] == "oss",
          f"{name}: one priced line, clients to oss (writes send nothing back): {lines}")
    if lines:
        check_close(lines[0]["GB"], GB, EXACT, f"{name}: {GB} GB delivered")
        check_close(lines[0]["cost"], GB * 0.05, EXACT, f"{name}: {GB} GB x 0.05")
    check_close(priced["phases"][name]["cost"] - plain["phases"][name]["cost"], GB * 0.05, 1e-9,
                f"{name}: the traffic adds {GB} x 0.05 to the phase's cost")
check_close(priced["phases"]["first"]["cost_per_TB"], priced["phases"]["first"]["cost"] / 0.08, EXACT,
            "cost per TB includes the traffic")
check_close(priced["run"]["cost"] - plain["run"]["cost"], 120 * 0.05, 1e-9, "the run: 120 GB x 0.05")
check(priced["run"]["energy_kwh"] == plain["run"]["energy_kwh"], "a network price changes no energy")
check(priced["accounting"]["prices"]["network"][0] == {"from": "clients", "to": "oss", "per_GB": 0.05},
      f"summary.json lists the prices: {priced['accounting']['prices']['network']}")
report = open(out + "/report.md").read()
check("| first | clients | oss | 80 | 4 |" in report, "report.md: the traffic billed, per phase and group pair")
check("Network from `clients` to `oss`: 0.05 USD per GB" in report, "report.md: the price used")

# A checkpoint through I/O forwarding crosses two priced hops (relayed); the resume reads back.
groups = ["compute", "fwd", "oss"]
every_pair = "accounting.network=[" + ", ".join(
    f"{{from: {a}, to: {b}, per_GB: 1}}" for a in groups for b in groups if a != b) + "]"
train = summary(run_out("tests/inputs/train_symmetric.yaml", every_pair))
state_GB = train["phases"]["train"]["checkpoint_bytes"] / 1e9
moved = {(n["from"], n["to"]): n["GB"] for n in train["accounting"]["phases"]["train"]["network"]}
for hop in [("compute", "fwd"), ("fwd", "oss"), ("oss", "fwd"), ("fwd", "compute")]:
    check_close(moved.get(hop, 0), state_GB, EXACT, f"{hop[0]} -> {hop[1]}: the {state_GB} GB state once")
check(("compute", "oss") not in moved, f"nothing goes around the forwarding nodes: {moved}")
finish()
