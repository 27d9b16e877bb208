"""Instance layouts of the vllm system through llsim: `tp` and `pp` split a host's GPUs into
count / (tp x pp) instances, and pp pipeline stages run as pp engines with 1/pp of the KV each.
Going to pp=2 adds exactly one stage-to-stage send per iteration (alpha-beta over the GPU link,
or read from Vidur's send_recv.csv); layouts that do not divide a host are errors."""
import csv
import os

from harness import ROOT, check, check_close, finish, run, run_fails, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"  # 8 x A100 80 GB SXM per host, one host
SMALL = "phases.chat.model={preset: llama3.1-8b}"
NETWORK = os.path.join(ROOT, "traces/calibration/vidur/network/a100_dgx")
ALPHA, LINK = 3.375e-6, 300e9 * 0.4763  # link_latency and NVLink x link_efficiency (defaults)
T, D, B = 4000, 4096, 2  # the lone prompt's tokens, Llama-3.1-8B's d_model, bytes per value


def simulate(*sets):
    """Returns (chat metrics, {operator: seconds}, [instance of each request])."""
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in (SMALL, *sets):
        args += ["--set", s]
    run(*args)
    ops = {}
    if os.path.exists(os.path.join(out, "chat_operators.csv")):  # absent when no iteration ran
        with open(os.path.join(out, "chat_operators.csv")) as f:
            ops = {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}
    with open(os.path.join(out, "chat_requests.csv")) as f:
        where = [int(r["instance"]) for r in csv.DictReader(f)]
    return summary(out)["phases"]["chat"], ops, where


# --- pp=2 on 8 GPUs: stages of TP4; an iteration is TP4's plus one send of the activations.
tp4, ops4, _ = simulate("phases.chat.system.tp=4")
pp2, ops2, _ = simulate("phases.chat.system.pp=2")
send = ALPHA + T * D * B / LINK
check(ops4["pipeline_send_recv"] == 0, "one stage sends nothing")
check_close(ops2["pipeline_send_recv"], send, 1e-9, "pp=2: one send of 4000 x 4096 x 2 bytes")
check_close(pp2["mean_ttft_s"], tp4["mean_ttft_s"] + send, 1e-9, "pp=2 TTFT = TP4's + the send")
four, ops_pp4, _ = simulate("phases.chat.system.pp=4")
check_close(ops_pp4["pipeline_send_recv"], 3 * send, 1e-9, "pp=4: three sends")

# With Vidur's send_recv.csv the send is the measured one, read between its points.
points = {}
with open(os.path.join(NETWORK, "send_recv.csv")) as f:
    for r in csv.DictReader(f):
        if r["num_workers"] == "2" and r["devices_per_node"] == "2":
            points.setdefault(int(r["size"]), []).append(float(r["time_stats.send_recv.median"]) / 1000)
sizes = sorted(points)
x = T * D * B
lo = max(s for s in sizes if s <= x)
hi = min(s for s in sizes if s > x)
y_lo, y_hi = (sum(points[s]) / len(points[s]) for s in (lo, hi))
_, measured, _ = simulate("phases.chat.system.pp=2", f"phases.chat.iteration.profile={NETWORK}")
check_close(measured["pipeline_send_recv"], y_lo + (y_hi - y_lo) * (x - lo) / (hi - lo), 1e-9,
            "the measured send, interpolated between its sizes")

# --- Instances per host: 4 prompts at once go to 4 instances of TP2 (least loaded), to 2 engines
# of a pp=2 instance, and to the one TP8 instance.
BURST = ["phases.chat.workload.requests=4", "phases.chat.workload.arrival=0s"]
for sets, instances in [((), 1), (("phases.chat.system.tp=2",), 4), (("phases.chat.system.pp=2",), 2),
                        (("phases.chat.system.tp=2", "phases.chat.system.pp=2"), 4)]:
    _, _, where = simulate(*BURST, *sets)
    check(len(set(where)) == instances, f"{sets or 'default'}: requests on {instances} instances or engines: {where}")

# Each engine has 1/pp of its instance's KV: 1,000 blocks of 16 tokens hold a request of 9,600
# tokens (600 blocks) in one engine, but not in one of two engines of 500.
LONG = ["phases.chat.batching.kv_blocks=1000", "phases.chat.workload.input_tokens=9500",
        "phases.chat.workload.output_tokens=100"]
one, _, _ = simulate(*LONG, "phases.chat.system.tp=4")
two, _, _ = simulate(*LONG, "phases.chat.system.pp=2")
check(one["completed"] == 1 and two["rejected"] == 1, "pp=2 halves an engine's KV blocks")

# The swap space per GPU is shared out over the engines too: an instance of all 8 GPUs holds a
# block of 16 tokens of Llama-3.1-8B's KV as 128 KiB x 16 / 8 = 262 kB per GPU, so 300 kB per GPU
# hold one block for one engine, and none for each of two.
SWAP = ["phases.chat.batching.preemption=swap"]
run_fails(SCENARIO, "batching.swap_space holds no KV block of group 'gpu' (262 kB per GPU for each of 2 pipeline "
          "engines)", SMALL, *SWAP, "phases.chat.batching.swap_space=300kB", "phases.chat.system.pp=2")
simulate(*SWAP, "phases.chat.batching.swap_space=300kB")  # one engine: one block
run_fails(SCENARIO, "batching.swap_space: 107 GB for each of 8 GPUs exceeds the 275 GB of memory of a host", SMALL,
          *SWAP, "phases.chat.batching.swap_space=100GiB")
# The table model's measured iterations cannot be split into stages.
run_fails(SCENARIO, "cannot split them into 2 pipeline stages", SMALL, "phases.chat.system.pp=2",
          f"phases.chat.iteration={{impl: table, file: {os.path.join(ROOT, 'tests/inputs/serve_iteration_table.csv')}}}")

# --- Errors: a layout that does not divide a host; stages without a link.
run_fails(SCENARIO, "tp x pp (3 x 1) must divide the 8 GPUs of a host of group 'gpu'", SMALL,
          "phases.chat.system.tp=3")
run_fails(SCENARIO, "pp: 3 pipeline stages must divide the 8 GPUs of a host", SMALL, "phases.chat.system.pp=3")
run_fails(SCENARIO, "tp x pp (4 x 4) must divide the 8 GPUs", SMALL, "phases.chat.system.tp=4",
          "phases.chat.system.pp=4")
run_fails(SCENARIO, "needs the link between the 2 pipeline stages", SMALL, "phases.chat.system.pp=2",
          "platform.groups.gpu.gpu={flops: 312TFlops, hbm_bandwidth: 2TBps, hbm: 80GB, count: 2}")
finish()
