"""A serve phase's `api_server:` front end through llsim: a request reaches its engine after
per_request + per_input_token x its prompt in a front-end process, which its TTFT includes; with
fewer processes than requests at once they queue (FIFO, in arrival order); the bottleneck
attribution names the time; without the section nothing moves."""
import csv
import json
import os

from harness import check, check_close, finish, run, scratch_dir

SCENARIO = "tests/inputs/serve_operators.yaml"  # Llama-3-70B on 8 x A100, one request of 4,000 tokens
THREE = "phases.chat.workload={requests: 3, arrival: 1s, input_tokens: 4000, output_tokens: 1}"
EXACT = 1e-9


def simulate(*sets):
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "chat_requests.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return [float(r["ttft_s"]) for r in rows], [float(r["arrival_s"]) for r in rows], summary


# --- One request alone: its TTFT grows by exactly the front end's time.
(alone,), _, plain = simulate()
(fronted,), _, _ = simulate("phases.chat.api_server={per_request: 10ms, per_input_token: 1us}")
check_close(fronted - alone, 0.010 + 4000 * 1e-6, EXACT, "TTFT + 10 ms + 4,000 tokens x 1 us")
(tokens_only,), _, _ = simulate("phases.chat.api_server={per_input_token: 2us}")
check_close(tokens_only - alone, 4000 * 2e-6, EXACT, "per_input_token alone: 4,000 x 2 us")
(empty,), _, empty_summary = simulate("phases.chat.api_server={}")
check(empty == alone and empty_summary["phases"] == plain["phases"], "an api_server of zero times moves nothing")

# --- Three requests 1 s apart, 2.5 s each in one process: they queue. Request i leaves the front
# end at 2.5 (i + 1) s after the first arrival, so it spends 2.5, 4 and 5.5 s there; the engine,
# idle by then, adds a lone request's TTFT.
base, arrivals, _ = simulate(THREE)
queued, _, summary = simulate(THREE, "phases.chat.api_server={per_request: 2.5s, processes: 1}")
for i, front in enumerate((2.5, 4.0, 5.5)):
    check_close(queued[i] - base[i], front, EXACT, f"request {i}: {front} s in the front end (one process)")
limit = summary["bottlenecks"]["chat"]
check_close(limit["seconds"]["in the API server"], 12.0, EXACT, "the attribution: 2.5 + 4 + 5.5 s in the API server")
check(limit["limit"] == "in the API server", f"the front end limits this run: {limit}")

# --- As many processes as requests: no queue, 2.5 s each. The default, one per instance, is one
# here (the group has one host of 8 GPUs, one instance).
spread, _, _ = simulate(THREE, "phases.chat.api_server={per_request: 2.5s, processes: 3}")
for i in range(3):
    check_close(spread[i] - base[i], 2.5, EXACT, f"request {i}: 2.5 s with three processes")
default, _, _ = simulate(THREE, "phases.chat.api_server={per_request: 2.5s}")
check(default == queued, "by default one process per instance (one instance here)")

# --- The default counts the servers requests enter: a vllm instance of two pipeline engines is one
# (one process: the queue as above), Mooncake's prefill instances (two) and not its decode ones.
pp2, _, _ = simulate(THREE, "phases.chat.system.pp=2", "phases.chat.system.tp=4",
                     "phases.chat.api_server={per_request: 2.5s}")
pp2_base, _, _ = simulate(THREE, "phases.chat.system.pp=2", "phases.chat.system.tp=4")
for i, front in enumerate((2.5, 4.0, 5.5)):
    check_close(pp2[i] - pp2_base[i], front, EXACT, f"pp 2: request {i} queues at the instance's one process")


def mooncake(processes):
    out = scratch_dir()
    args = ["run", "tests/inputs/serve_mooncake.yaml", "--quiet", "--out", out, "--set",
            "phases.chat.workload.duration=20s", "--set",
            "phases.chat.api_server={per_request: 300ms" + (f", processes: {processes}" if processes else "") + "}"]
    run(*args)
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)["phases"]["chat"]


default_mc = mooncake(None)
check(default_mc == mooncake(2) and default_mc != mooncake(4), "Mooncake: one process per prefill instance")

# --- Under autoscaling the processes must be given: the front end does not follow the instances.
_, _, err = run("validate", "tests/inputs/autoscale.yaml", "--set", "phases.chat.api_server={per_request: 1ms}",
                expect=2)
check("give its processes under autoscaling" in err, f"autoscaling without processes is refused: {err}")

# --- A bad figure is refused at its key.
_, _, err = run("run", SCENARIO, "--out", os.path.join(scratch_dir(), "out"), "--set",
                "phases.chat.api_server={per_request: -1ms}", expect=2)
check("phases[0].api_server.per_request" in err, f"a negative time is refused: {err}")

finish()
