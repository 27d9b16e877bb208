"""workload.client_timeout through llsim (tests/inputs/serve_operators.yaml: Llama-3-70B on 8 A100s,
vllm, operators model). A request not finished `client_timeout` after its arrival is aborted at the
end of the iteration under way then (a run of identical decode steps taken in one wait stops there
too), counted as timed_out and neither completed nor in the latency statistics; its tokens are not
counted; the KV it held is freed for the requests behind it; one that reaches a decode instance
after its timeout (mooncake) is aborted there; without a timeout nothing changes."""
import csv
import os

from harness import check, check_close, finish, run_out, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"
EXACT = 1e-9


def simulate(*sets, scenario=SCENARIO):
    """The phase's metrics and its requests' rows."""
    out = run_out(scenario, *sets)
    with open(os.path.join(out, "chat_requests.csv")) as f:
        rows = list(csv.DictReader(f))
    return summary(out)["phases"]["chat"], rows


# --- A lone request (arrives at 0 s, 4,000 tokens in, 1,000 out; about 25 ms a decode step) with a
# timeout of 2 s is aborted at the end of the first step to end at or after 2 s: the end of its
# n-th token, for the n whose run without a timeout ends there. Its decode steps are one steady run.
LONE = "phases.chat.workload.output_tokens=1000"
ends = {n: float(simulate(f"phases.chat.workload.output_tokens={n}")[1][0]["finish_s"]) for n in range(58, 70)}
n = min(k for k, end in ends.items() if end >= 2.0)
check(n - 1 in ends and ends[n - 1] < 2.0, f"the search brackets the deadline (a run ending before it): {ends}")
timed, rows = simulate(LONE, "phases.chat.workload.client_timeout=2s")
check(timed["timed_out"] == 1 and timed["completed"] == 0, f"the request timed out: {timed}")
check_close(timed["end_s"], ends[n], EXACT, f"aborted at the end of the step of its token {n}, the first at or after 2 s")
check(timed["output_tokens"] == 0 and timed["mean_ttft_s"] == 0, "its tokens and TTFT are not counted")
check(rows[0]["timed_out"] == "1" and rows[0]["finish_s"] == "-1", f"its row says so: {rows[0]}")
# One that would finish in that very step, after its deadline, timed out as well; one step
# earlier it completes.
late, _ = simulate(f"phases.chat.workload.output_tokens={n}", "phases.chat.workload.client_timeout=2s")
check(late["timed_out"] == 1 and late["completed"] == 0, f"its last token after the deadline: timed out: {late}")
early, _ = simulate(f"phases.chat.workload.output_tokens={n - 1}", "phases.chat.workload.client_timeout=2s")
check(early["completed"] == 1 and early["timed_out"] == 0, f"its last token before the deadline: completed: {early}")

# --- Without a timeout nothing moves; with one that never binds, neither.
plain, plain_rows = simulate(LONE)
loose, loose_rows = simulate(LONE, "phases.chat.workload.client_timeout=1h")
check(loose == plain and loose_rows == plain_rows, "a timeout that never passes changes nothing")

# --- One at a time (max_batch_size 1), three requests at 0 s of about 7.8 s each, timeout 10 s:
# the first completes as without a timeout, the second runs until the first step to end after
# 10 s, the third waits and is aborted there too.
QUEUE = ["phases.chat.workload.requests=3", "phases.chat.workload.arrival=0s",
         "phases.chat.workload.output_tokens=300", "phases.chat.batching.max_batch_size=1"]
_, untimed = simulate(*QUEUE)
queued, rows = simulate(*QUEUE, "phases.chat.workload.client_timeout=10s")
check(queued["completed"] == 1 and queued["timed_out"] == 2, f"one completes, two time out: {queued}")
check(rows[0] == untimed[0], "the first request runs as without a timeout")
gap = float(untimed[1]["tpot_s"]) * 1.01
check(10 <= queued["end_s"] < 10 + gap, f"both aborted at the end of the step under way at 10 s: {queued['end_s']}")
check(queued["output_tokens"] == 300, f"only the completed request's tokens count: {queued['output_tokens']}")

# --- The KV of an aborted request is freed. Two requests (a BurstGPT-format trace): 2,000 tokens in
# and 1,000 out at 0 s, 2,000 in and 10 out at 0.5 s; 200 blocks of 16 tokens hold the first (125
# blocks, growing to 188) but not both. Without a timeout the second waits for the first's end
# (about 24 s); with one of 2 s the first is aborted at about 2 s and the second, admitted then,
# completes within its own 2 s.
trace = os.path.join(scratch_dir(), "two.csv")
with open(trace, "w") as f:
    f.write("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
            "0,GPT-4,2000,1000,3000,API log\n0.5,GPT-4,2000,10,2010,API log\n")
KV = [f"phases.chat.workload={{trace: {trace}, format: burstgpt}}", "phases.chat.batching.kv_blocks=200"]
held, held_rows = simulate(*KV)
check(held["completed"] == 2 and float(held_rows[1]["first_token_s"]) > 20,
      f"without a timeout the second waits for the first's end: {held_rows[1]}")
freed, freed_rows = simulate(*KV, "phases.chat.workload.client_timeout=2s")
check(freed["timed_out"] == 1 and freed_rows[0]["timed_out"] == "1" and freed_rows[1]["timed_out"] == "0",
      f"the first times out: {freed_rows}")
first = float(freed_rows[1]["first_token_s"])
check(2 <= first < 2.5 and float(freed_rows[1]["finish_s"]) <= 2.5,
      f"the second starts once the first's KV is freed and completes: {freed_rows[1]}")

# --- Disaggregated (mooncake): requests whose timeout passes in a prefill queue or on their way
# to a decode instance end timed out; every request ends one way.
moon, _ = simulate("phases.chat.workload.client_timeout=2s", scenario="tests/inputs/serve_mooncake.yaml")
ended = moon["completed"] + moon["timed_out"] + moon["rejected"] + moon["failed"]
check(moon["timed_out"] > 0 and ended == moon["requests"], f"mooncake: every request ends one way: {moon}")

finish()
