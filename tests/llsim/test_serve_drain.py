"""A Mooncake serve phase with an SSD tier ends with its last request (issue 27, item 2): the KV
blocks still being written to the pool and the SSD tier then are written in the background,
reported as kv_drain_bytes and kv_drain_end_s, and a phase `after` it starts at once and
contends with them."""
import csv
import os

from harness import ROOT, check, finish, run, scratch_dir, summary

MC = "tests/inputs/serve_mooncake.yaml"
SSD = ["services.kvpool.capacity=50GB", "phases.chat.system.ssd={storage: flash, capacity: 10TB}"]
SLOW = ["platform.groups.ssd.disks.read=10MBps", "platform.groups.ssd.nic.bandwidth=10MBps"]


def simulate(scenario, sets):
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    code, _, _ = run(*args)
    return (summary(out), out) if code == 0 else (None, out)


def last_finish(out):
    with open(os.path.join(out, "chat_requests.csv")) as f:
        return max(float(r["finish_s"]) for r in csv.DictReader(f))


for label, sets in [("default disks", SSD), ("slow disks", SSD + SLOW), ("no SSD tier", [])]:
    s, out = simulate(MC, sets)
    if s is None:
        continue
    chat = s["phases"]["chat"]
    end = last_finish(out)
    check(abs(chat["end_s"] - end) <= 1e-9 * end,
          f"{label}: the phase ends with its last request: end_s {chat['end_s']} vs last finish {end}")
    check(chat["kv_drain_end_s"] >= chat["end_s"] and s["simulated_time_s"] >= chat["kv_drain_end_s"],
          f"{label}: end_s {chat['end_s']} <= kv_drain_end_s {chat['kv_drain_end_s']} <= simulated time "
          f"{s['simulated_time_s']}")
    if sets:
        check(chat["kv_drain_bytes"] > 0 and chat["kv_drain_end_s"] > chat["end_s"],
              f"{label}: a backlog is drained after the end: {chat['kv_drain_bytes']} B until "
              f"{chat['kv_drain_end_s']} s")
    if sets == SSD + SLOW:  # the figures: the drain took about 70,000 s
        check(chat["kv_drain_end_s"] > 10 * chat["end_s"], f"{label}: the long drain is reported, not the end_s")

# A phase after the serve phase starts at its last request's end, not after the drain, and its
# writes to the SSD tier's storage (10 MB/s NICs) contend with the drain: 100 s alone.
with open(os.path.join(ROOT, MC)) as f:
    text = f.read().replace("../../traces/", os.path.join(ROOT, "traces") + "/")
scenario = os.path.join(scratch_dir(), "serve_then_copy.yaml")
with open(scenario, "w") as f:
    f.write(text + "  - {name: copy, kind: transfer, after: [chat], from: decode, to: flash, bytes: 1GB}\n")
copy_s = {}
for label, sets in [("drain", SSD + SLOW), ("no SSD tier", ["services.kvpool.capacity=50GB"] + SLOW)]:
    s, out = simulate(scenario, sets)
    if s is None:
        continue
    chat, copy = s["phases"]["chat"], s["phases"]["copy"]
    check(copy["start_s"] == chat["end_s"] and abs(copy["start_s"] - last_finish(out)) <= 1e-9 * copy["start_s"],
          f"{label}: the phase after starts at the last request's end: {copy['start_s']} vs {last_finish(out)}")
    copy_s[label] = copy["end_s"] - copy["start_s"]
    if label == "drain":
        check(chat["kv_drain_end_s"] > copy["start_s"], "the drain runs on while the next phase starts")
if len(copy_s) == 2:
    check(copy_s["drain"] > 2 * copy_s["no SSD tier"],
          f"the copy contends with the drain: {copy_s['drain']:.3f} s against {copy_s['no SSD tier']:.3f} s alone")

finish()
