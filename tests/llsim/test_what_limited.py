"""What limited a phase is about the work the phase exists for (docs/accounting.md, "What limited
each phase"). At 559e7f9 a serve phase's weight loads charged the file system thousands of
seconds beside its requests' own time, so cold starts no request waited for flipped the verdict;
a train phase counted compute in node-seconds and only the checkpoints run through the services,
so a job blocked for hours on its file system read "compute 100%", and io_replay changed the
verdict at identical goodput. Now a serve phase's requests wait for weights as one resource while
the loads' I/O is provisioning work, apart, and a train phase's shares are of the job's time."""
import csv
import os

from harness import check, check_close, finish, run_out, summary

EXACT = 1e-9


def rows(out, name):
    with open(os.path.join(out, name)) as f:
        return list(csv.DictReader(f))


# One request arrives as its instance starts loading 141.2 GB of weights: it waits for the whole
# load; the load's disks, queues and NICs are provisioning work.
out = run_out("tests/inputs/weights_load.yaml")
b = summary(out)["bottlenecks"]["chat"]
load = rows(out, "chat_loads.csv")[0]
request = rows(out, "chat_requests.csv")[0]
check(b["limit"] == "waiting for weights" and b["of"] == "the requests' time", f"the request waited for weights: {b}")
check_close(b["seconds"]["waiting for weights"], float(load["end_s"]) - float(request["arrival_s"]), EXACT,
            "its wait is the load's end less its arrival")
check(not any(r.startswith("pfs") or r.startswith("network") for r in b["shares"]), f"no load I/O in the shares: {b}")
check(b["background_seconds"].get("pfs disks", 0) > 0, f"the load's disks count apart: {b['background_seconds']}")

# Autoscaled cold starts under a steady load: the requests' wait for weights is the overlap of
# each one's time before its first token with its instance's loads, from the two CSVs.
out = run_out("tests/inputs/autoscale.yaml", "phases.chat.weights={path: models/llama2-7b, from: pfs}",
              "phases.chat.workload.requests=1500")
b = summary(out)["bottlenecks"]["chat"]
spans = {}
for load in rows(out, "chat_loads.csv"):
    end = float(load["end_s"]) if float(load["end_s"]) >= 0 else float("inf")
    spans.setdefault(load["instance"], []).append((float(load["start_s"]), end))
expected = sum(max(0.0, min(end, float(r["first_token_s"])) - max(start, float(r["arrival_s"])))
               for r in rows(out, "chat_requests.csv") if float(r["finish_s"]) >= 0
               for start, end in spans.get(r["instance"], []))
check(expected > 0, "some requests waited for a cold start")
check_close(b["seconds"].get("waiting for weights", 0), expected, 1e-6, "waiting for weights = the overlaps")
check(not any(r.startswith("pfs") for r in b["shares"]) and b["background_seconds"].get("pfs disks", 0) > 0,
      f"the cold starts' I/O is provisioning work: {b}")
without = summary(run_out("tests/inputs/autoscale.yaml", "phases.chat.workload.requests=1500"))["bottlenecks"]["chat"]
check(b["limit"] == without["limit"] and without["limit"].startswith("GPU"),
      f"cold starts leave the verdict as without weights: {b['limit']} vs {without['limit']}")

# A train job: the shares are of its makespan, and every checkpoint counts whether run through
# the services or charged what the first one measured.
TRAIN = "tests/inputs/train_symmetric.yaml"
SLOW_DISKS = "platform.groups.oss.disks={count: 4, read: 60MBps, write: 50MBps, capacity: 100TB}"
EVERY = "phases.train.checkpoint.policy={impl: every_n, iterations: 5}"
verdicts = {}
for replay in ["auto", "always"]:
    s = summary(run_out(TRAIN, SLOW_DISKS, EVERY, "phases.train.iterations=40",
                        f"phases.train.checkpoint.io_replay={replay}"))
    b, m = s["bottlenecks"]["train"], s["phases"]["train"]
    verdicts[replay] = b
    check(b["of"] == "the job's time", f"a train phase's shares are of the job's time: {b['of']}")
    check_close(sum(b["seconds"].values()), m["makespan_s"], 1e-9, f"io_replay {replay}: the parts add up to the makespan")
    check_close(b["seconds"]["compute"], m["makespan_s"] * m["goodput"], 1e-9, f"io_replay {replay}: useful compute")
    io = sum(v for k, v in b["seconds"].items() if k != "compute")
    check_close(io, m["blocking_s"] + m["restarting_s"], 1e-9,
                f"io_replay {replay}: the rest is blocking checkpoints and the resumed job's read")
    check(b["limit"] == "pfs disk queue", f"io_replay {replay}: a job blocked on slow disks names them: {b['shares']}")
check(verdicts["auto"]["limit"] == verdicts["always"]["limit"]
      and abs(verdicts["auto"]["share"] - verdicts["always"]["share"]) < 1e-3,
      f"io_replay leaves the verdict: auto {verdicts['auto']['share']}, always {verdicts['always']['share']}")

finish()
