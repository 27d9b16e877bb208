"""llsim trace stats: the ideal prefix hit ratio against an independent implementation of its
definition on every shipped trace and several cache sizes (4 decimals), request counts, rates and
length percentiles, the three formats, and malformed lines (an error with the line, or skipped and
counted with --skip-bad-lines)."""
import csv
import datetime
import json
import math
import os
from collections import OrderedDict

from harness import check, finish, run, scratch_dir

MOONCAKE = "traces/mooncake_conversation_trace.jsonl"
AZURE = "traces/azure_llm_inference_2023_conv.csv"
BURST = "tests/inputs/burstgpt_sample.csv"
SIZES = ["inf", "0", "1", "100", "1000", "10000", "100000"]


def reference_hit_ratio(requests, size):
    """The definition, written out: arrival order (ties in file order), the longest cached prefix
    before serving, then touch or insert each block and evict the LRU beyond `size`."""
    cache = OrderedDict()
    hits = blocks = 0
    for _, ids in sorted(requests, key=lambda r: r[0]):  # sorted() is stable
        n = 0
        while n < len(ids) and ids[n] in cache:
            n += 1
        hits += n
        blocks += len(ids)
        for b in ids:
            if b in cache:
                cache.move_to_end(b)
            else:
                cache[b] = True
                if size is not None and len(cache) > size:
                    cache.popitem(last=False)
    return hits / blocks


def stats(*args, expect=0):
    code, out, err = run("trace", "stats", *args, expect=expect)
    return (json.loads(out) if code == 0 and "--json" in args else out), err


with open(MOONCAKE) as f:
    rows = [json.loads(line) for line in f if line.strip()]
requests = [(r["timestamp"] / 1000.0, r["hash_ids"]) for r in rows]
got, _ = stats(MOONCAKE, "--cache-blocks", ",".join(SIZES), "--json")
check(got["requests"] == len(rows) == 12031, f"mooncake requests: {got['requests']}")
check(list(got["prefix_hit_ratio"]) == SIZES or sorted(got["prefix_hit_ratio"]) == sorted(SIZES), "keyed as written")
for size in SIZES:
    want = reference_hit_ratio(requests, None if size == "inf" else int(size))
    check(round(got["prefix_hit_ratio"][size], 4) == round(want, 4),
          f"hit ratio at {size}: {got['prefix_hit_ratio'][size]:.6f} vs {want:.6f}")
check(round(got["prefix_hit_ratio"]["inf"], 4) == 0.3664 and round(got["prefix_hit_ratio"]["1000"], 4) == 0.0445,
      "the issue's figures")
inputs = sorted(r["input_length"] for r in rows)
check(got["input_tokens"]["p50"] == inputs[math.ceil(0.5 * len(inputs)) - 1], "input p50 (nearest rank)")
check(got["input_tokens"]["max"] == 126195 and abs(got["input_tokens"]["mean"] - sum(inputs) / len(inputs)) < 1e-6, "input mean, max")
check(abs(got["request_rate_per_s"] - len(rows) / 3536.999) < 1e-9, "request rate")

# Azure: no prefix blocks; times from wall-clock stamps.
az, _ = stats(AZURE, "--json")
with open(AZURE) as f:
    az_rows = list(csv.DictReader(f))
stamps = [datetime.datetime.strptime(r["TIMESTAMP"][:26], "%Y-%m-%d %H:%M:%S.%f") for r in az_rows]
span = (max(stamps) - min(stamps)).total_seconds()
check(az["requests"] == 19366 and az["format"] == "azure", f"azure: {az['requests']}")
check(abs(az["duration_s"] - span) < 1e-5, f"azure duration {az['duration_s']} vs {span}")
check(az["prefix_hit_ratio"]["inf"] is None, "azure has no prefix blocks")
check(az["output_tokens"]["max"] == max(int(r["GeneratedTokens"]) for r in az_rows), "azure output max")

# BurstGPT (a small sample; none is shipped).
bg, _ = stats(BURST, "--json")
check(bg["format"] == "burstgpt" and bg["requests"] == 3 and bg["duration_s"] == 2.5, f"burstgpt: {bg}")
check(bg["input_tokens"]["max"] == 300 and bg["output_tokens"]["p50"] == 20, "burstgpt lengths")

# Text output.
text, _ = stats(MOONCAKE, "--cache-blocks", "1000")
check("12031 requests" in text and "1000: 0.0445" in text, f"text output: {text}")

# Malformed lines: an error naming the line, or skipped and counted.
d = scratch_dir()
bad_moon = os.path.join(d, "bad.jsonl")
with open(MOONCAKE) as f, open(bad_moon, "w") as out:
    lines = f.readlines()[:5]
    lines[2] = '{"timestamp": 10, "input_length": "many", "output_length": 3, "hash_ids": [1]}\n'
    out.writelines(lines)
_, err = stats(bad_moon, expect=2)
check(f"{bad_moon}:3:" in err and "input_length" in err, f"mooncake bad line: {err}")
skipped, _ = stats(bad_moon, "--skip-bad-lines", "--json")
check(skipped["requests"] == 4 and skipped["skipped_lines"] == 1, f"mooncake skip: {skipped}")
bad_az = os.path.join(d, "bad.csv")
with open(AZURE) as f, open(bad_az, "w") as out:
    lines = f.readlines()[:6]
    lines[4] = "2023-13-16 18:15:46.6805900,374,44\n"
    lines[5] = "2023-11-16 18:15:59.1,374\n"
    out.writelines(lines)
_, err = stats(bad_az, expect=2)
check(f"{bad_az}:5:" in err and "TIMESTAMP" in err, f"azure bad line: {err}")
skipped, _ = stats(bad_az, "--skip-bad-lines", "--json")
check(skipped["requests"] == 3 and skipped["skipped_lines"] == 2, f"azure skip: {skipped}")
bad_bg = os.path.join(d, "bad_burst.csv")
with open(BURST) as f, open(bad_bg, "w") as out:
    lines = f.readlines()
    lines[2] = "1.25,GPT-4,-300,40,340,Conversation log\n"
    out.writelines(lines)
_, err = stats(bad_bg, "--format", "burstgpt", expect=2)
check(f"{bad_bg}:3:" in err and "Request tokens" in err, f"burstgpt bad line: {err}")

# The largest block id a hash_ids list may hold, and a byte order mark before a CSV header.
path = os.path.join(scratch_dir(), "maxid.jsonl")
with open(path, "w") as f:
    f.write('{"timestamp": 0, "input_length": 1, "output_length": 1, "hash_ids": [18446744073709551615]}\n' * 2)
check(stats(path, "--cache-blocks", "inf", "--json")[0]["prefix_hit_ratio"] == {"inf": 0.5},
      "a block id of 2^64 - 1 is read and reused")
path = os.path.join(scratch_dir(), "bom.csv")
with open(path, "w", encoding="utf-8-sig") as f:
    f.write("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6,10,10\n")
check(stats(path, "--format", "azure", "--json")[0]["requests"] == 1, "a CSV saved with a byte order mark")

# Bad command lines.
for args, text in [(["stats"], "TRACE is required"), (["stats", MOONCAKE, "--cache-blocks", "ten"], "--cache-blocks"),
                   (["stats", MOONCAKE, "--format", "csv"], "--format"), (["stat", MOONCAKE], "subcommand")]:
    _, _, err = run("trace", *args, expect=2)
    check(text in err, f"trace {args}: {err}")

# Counts and times beyond llsim's bounds, and dates that do not exist, are malformed lines.
d = scratch_dir()
for name, text, expected in [
        ("huge.jsonl", '{"timestamp": 0, "input_length": 100, "output_length": 9223372036854775800, "hash_ids": [1]}\n',
         "huge.jsonl:1: 'output_length' must be an integer from 1 to 10^12"),
        ("late.jsonl", '{"timestamp": 0, "input_length": 1, "output_length": 1, "hash_ids": []}\n'
                       '{"timestamp": 1e21, "input_length": 1, "output_length": 1, "hash_ids": []}\n',
         "late.jsonl:2: 'timestamp' must be a number of milliseconds from 0 to 10^12"),
        ("feb30.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-02-30 18:15:40.0,10,10\n",
         "feb30.csv:2: TIMESTAMP '2023-02-30 18:15:40.0' is not a date"),
        ("negid.jsonl", '{"timestamp": 0, "input_length": 1, "output_length": 1, "hash_ids": [18446744073709551615, -1]}\n',
         "negid.jsonl:1: 'hash_ids' must hold integers from 0 to 18446744073709551615"),
        ("hex.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6,0x10,10\n",
         "hex.csv:2: column 'ContextTokens': '0x10' is not a number")]:
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    _, err = stats(path, expect=2)
    check(expected in err, f"{name}: {err.strip()}")

finish()
