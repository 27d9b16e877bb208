"""Measurements users bring from real runs: a per-request log (JSON lines) and vLLM's benchmark result
JSON. `llsim trace stats` reads them and gives the measured TTFT and time per output token; a serve
phase replays their arrivals and lengths, or their arrivals with lengths drawn from distributions;
malformed input is an error naming the file and line."""
import os

from harness import check, check_close, finish, run, scratch_dir, summary
import json

LOG = "tests/inputs/request_log.jsonl"
BENCH = "tests/inputs/vllm_benchmark.json"

_, text, _ = run("trace", "stats", LOG, "--format", "requests", "--json")
j = json.loads(text)
check(j["requests"] == 3 and j["duration_s"] == 2.5, f"three requests over 2.5 s: {j}")
# TTFTs 0.2, 0.5, 0.1 s; times per output token (0.45 / 9) and (0.95 / 19) = 0.05 s (one token: none).
check_close(j["measured_ttft_s"]["mean"], (0.2 + 0.5 + 0.1) / 3, 1e-9, "mean measured TTFT")
check_close(j["measured_ttft_s"]["max"], 0.5, 1e-9, "max measured TTFT")
check_close(j["measured_tpot_s"]["mean"], 0.05, 1e-9, "time per output token from first and last tokens")
_, text, _ = run("trace", "stats", BENCH)
check("(vllm_benchmark): 3 requests over 0.5 s," in text, f"a .json file is a vLLM benchmark result: {text}")
check("measured TTFT: mean 0.07 s" in text and "measured time per output token: mean 0.015 s" in text,
      f"TTFTs and inter-token gaps read: {text}")

# Replayed by a serve phase: the log's arrivals and lengths.
SCENARIO = "tests/inputs/serve_operators.yaml"
out = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out, "--set", f"phases.chat.workload={{trace: {os.path.abspath(LOG)}, "
    "format: requests}")
m = summary(out)["phases"]["chat"]
check(m["requests"] == 3 and m["completed"] == 3, f"the log's three requests are served: {m}")
with open(os.path.join(out, "chat_requests.csv")) as f:
    rows = f.read().splitlines()
check(len(rows) == 4, "one row per request")
# Their arrivals with lengths drawn instead: 64 tokens in, 4 out.
out2 = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out2, "--set", f"phases.chat.workload={{trace: {os.path.abspath(LOG)}, "
    "format: requests, input_tokens: 64, output_tokens: 4}")
m2 = summary(out2)["phases"]["chat"]
check(m2["completed"] == 3 and m2["mean_ttft_s"] < m["mean_ttft_s"], "shorter drawn prompts: shorter TTFT")
# A .json trace is taken as a vLLM benchmark result.
out3 = scratch_dir()
run("run", SCENARIO, "--quiet", "--out", out3, "--set", f"phases.chat.workload={{trace: {os.path.abspath(BENCH)}}}")
check(summary(out3)["phases"]["chat"]["completed"] == 3, "a .json workload replays the benchmark's requests")
_, _, err = run("run", SCENARIO, "--quiet", "--out", os.path.join(scratch_dir(), "o"), "--set",
                f"phases.chat.workload={{trace: {os.path.abspath(LOG)}, format: requests, requests: 5}}", expect=2)
check("a synthetic workload's key; this workload replays a trace's arrivals" in err, f"requests with a trace: {err}")

# Bad input: the file and line, exit 2.
bad = scratch_dir()


def refused(name, content, fmt, text, *extra):
    path = os.path.join(bad, name)
    with open(path, "w") as f:
        f.write(content)
    _, _, err = run("trace", "stats", path, "--format", fmt, *extra, expect=2)
    check(text in err, f"{name}: error says {text!r}: {err.strip()}")


GOOD = '{"request_id": 1, "input_tokens": 10, "output_tokens": 2, "arrival_s": 0, "first_token_s": 1, "last_token_s": 2}\n'
refused("missing.jsonl", GOOD + '{"request_id": 2, "input_tokens": 10}\n', "requests",
        "missing.jsonl:2: 'output_tokens' is missing")
refused("twice.jsonl", GOOD + GOOD, "requests", "twice.jsonl:2: request_id 1 appears twice")
refused("order.jsonl", GOOD.replace('"last_token_s": 2', '"last_token_s": 0.5'), "requests",
        "order.jsonl:1: expected arrival_s <= first_token_s <= last_token_s")
refused("notjson.jsonl", "\n\n{oops\n", "requests", "notjson.jsonl:3: not a JSON object")
refused("negative.jsonl", GOOD.replace('"input_tokens": 10', '"input_tokens": -1'), "requests",
        "negative.jsonl:1: 'input_tokens' must be an integer from 1 to 10^12")
refused("noid.jsonl", GOOD.replace('"request_id": 1', '"request_id": null'), "requests",
        "noid.jsonl:1: 'request_id' must be a string or an integer")
refused("tiny_rate.json", '{"input_lens": [1, 2], "output_lens": [1, 1], "ttfts": [0, 0], "request_rate": 1e-300}',
        "vllm_benchmark", "tiny_rate.json: 'request_rate' puts request 1 more than")
refused("overflow.json", '{"backend": "1e999",\n "input_lens": [1],\n "ttfts": [1e999]}', "vllm_benchmark",
        "overflow.json:3: a number beyond the range of a double")
refused("errors.json", '{"input_lens": [1], "output_lens": [1], "ttfts": [0], "errors": [0]}', "vllm_benchmark",
        "'errors'[0] must be a text (empty: no error) or null")
# A log on Unix time is read from its first request.
with open(os.path.join(bad, "unix.jsonl"), "w") as f:
    f.write(GOOD.replace('"arrival_s": 0, "first_token_s": 1, "last_token_s": 2',
                         '"arrival_s": 1700000000.5, "first_token_s": 1700000001, "last_token_s": 1700000002'))
_, text, _ = run("trace", "stats", os.path.join(bad, "unix.jsonl"), "--format", "requests", "--json")
check_close(json.loads(text)["measured_ttft_s"]["mean"], 0.5, 1e-9, "Unix-time log: TTFT from its own clock")
_, text, _ = run("trace", "stats", os.path.join(bad, "twice.jsonl"), "--format", "requests", "--skip-bad-lines")
check("skipped 1 lines it could not use" in text, f"--skip-bad-lines counts: {text}")
refused("syntax.json", '{\n  "input_lens": [1, 2],\n  "output_lens": [1, 2\n}\n', "vllm_benchmark", "syntax.json:4: not JSON")
refused("lengths.json", '{"input_lens": [1, 2], "output_lens": [1], "ttfts": [0, 0]}', "vllm_benchmark",
        "lengths.json: 'output_lens' must be a list of 2 values")
refused("ttft.json", '{"input_lens": [1], "output_lens": [1], "ttfts": ["x"]}', "vllm_benchmark",
        "ttft.json: 'ttfts'[0] must be a number of seconds")
refused("rate.json", '{"input_lens": [1], "output_lens": [1], "ttfts": [0], "request_rate": -2}', "vllm_benchmark",
        "'request_rate' must be a number of requests per second > 0, or \"inf\"")
# Failed requests (an error text) are left out and counted.
with open(os.path.join(bad, "failed.json"), "w") as f:
    f.write('{"input_lens": [1, 2], "output_lens": [1, 0], "ttfts": [0.1, 0], "errors": ["", "timeout"]}')
_, text, _ = run("trace", "stats", os.path.join(bad, "failed.json"), "--json")
check(json.loads(text)["requests"] == 1 and json.loads(text)["skipped_lines"] == 1, "a failed request is left out")
finish()
