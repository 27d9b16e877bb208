"""What limited each phase (summary.json `bottlenecks`, sim/sg/wait_ledger.hpp) on cases whose
answer is known: a disk-bound, a NIC-bound and a backbone-bound transfer (also one whose
backbone is wider than the NICs but shared by every flow, and one sharing a backbone with flows
held elsewhere), a metadata-bound ingest, a memory-bound decode and a compute-bound prefill, an
overloaded server (and one held by its KV memory, one by its batch slots, one turning every
request away), a compute-bound bag of tasks; and sums the ledger must match exactly (bytes / disk bandwidth, operations x service
time, the lone request's time on the GPU)."""
import csv
import os

from harness import check, check_close, finish, run_out, summary

EXACT = 1e-9


def limits(scenario, *sets):
    out = run_out(scenario, *sets)
    s = summary(out)
    return s, out


def disk_share(b, service):
    return b["shares"].get(f"{service} disk queue", 0) + b["shares"].get(f"{service} disks", 0)


# Transfers (tests/inputs/transfer_bounds.yaml: 8 senders x 20 GB to 16 disks of 2 GB/s).
s, _ = limits("tests/inputs/transfer_bounds.yaml", "platform.groups.receivers.disks.write=100MBps")
b = s["bottlenecks"]["copy"]
check(b["limit"].startswith("fs disk") and disk_share(b, "fs") > 0.9,
      f"disk-bound transfer: disks above 90%: {b['shares']}")
s, _ = limits("tests/inputs/transfer_bounds.yaml")
check_close(s["bottlenecks"]["copy"]["seconds"]["fs disks"], 8 * 20e9 / 2e9, EXACT,
            "the disks' own seconds = bytes written / write bandwidth")
s, _ = limits("tests/inputs/transfer_bounds.yaml", "platform.groups.senders.nic.bandwidth=100MBps")
b = s["bottlenecks"]["copy"]
check(b["limit"] == "network: NIC" and b["share"] > 0.9, f"NIC-bound transfer: {b['shares']}")
s, _ = limits("tests/inputs/transfer_bounds.yaml", "platform.backbone.bandwidth=1GBps")
b = s["bottlenecks"]["copy"]
check(b["limit"] == "network: backbone" and b["share"] > 0.9, f"backbone-bound transfer: {b['shares']}")
# A backbone nominally wider than every NIC (12 GB/s against 10) but crossed by all 16 streams
# (0.75 GB/s each, where a sender's NIC gives each of its two 5 GB/s): the backbone limits.
s, _ = limits("tests/inputs/transfer_bounds.yaml", "platform.backbone.bandwidth=12GBps")
b = s["bottlenecks"]["copy"]
check(b["limit"] == "network: backbone" and b["shares"].get("network: NIC", 0) < 0.05,
      f"a contended backbone wider than the NICs: {b['shares']}")
# The backbone crossed by 20 flows, 19 of them held by another NIC: the lone flow's own NIC
# (10 GB/s, which it reaches) held it, not the backbone's 5 GB/s fair share.
s, _ = limits("tests/inputs/transfer_two_fans.yaml")
for phase in ["lone", "crowd"]:
    b = s["bottlenecks"][phase]
    check(b["limit"] == "network: NIC" and "network: backbone" not in b["shares"],
          f"{phase}: held by a NIC, not the backbone the other phase crowds: {b['shares']}")

# Metadata: mdtest against one server of 8 threads, every operation at 50k/s, constant service.
rates = "{" + ", ".join(f"{op}: 50k/s" for op in ["mkdir", "create", "open", "stat", "readdir", "unlink", "close"]) + "}"
s, _ = limits("tests/inputs/ingest_mdtest.yaml", "services.mds.service_time=constant", f"services.mds.ops={rates}")
b = s["bottlenecks"]["md"]
check(b["limit"] == "mds metadata queue" and b["share"] > 0.9, f"metadata-bound ingest: {b['shares']}")
rpcs = s["services"]["mds"]["operations"]
check_close(b["seconds"]["mds metadata service"], rpcs * 8 / 50e3, EXACT,
            f"metadata service seconds = {rpcs:.0f} RPCs x 8 threads / 50k/s")

# Serving one request alone (tests/inputs/serve_single.yaml): all its time is GPU time.
out = run_out("tests/inputs/serve_single.yaml", "phases.chat.workload.input_tokens=100",
              "phases.chat.workload.output_tokens=2000")
b = summary(out)["bottlenecks"]["chat"]
check(b["limit"] == "GPU: HBM bandwidth" and b["share"] > 0.9, f"memory-bound decode: {b['shares']}")
with open(os.path.join(out, "chat_requests.csv")) as f:
    request = next(csv.DictReader(f))
check_close(sum(b["seconds"].values()), float(request["finish_s"]) - float(request["arrival_s"]), EXACT,
            "the lone request's time is all charged, at the GPU")
s, _ = limits("tests/inputs/serve_single.yaml", "phases.chat.workload.input_tokens=8000",
              "phases.chat.workload.output_tokens=1")
b = s["bottlenecks"]["chat"]
check(b["limit"] == "GPU: compute" and b["share"] > 0.9, f"compute-bound prefill: {b['shares']}")

# One instance for a load meant for fifteen: requests wait outside the batch, for KV memory (1049
# preemptions) and for batch slots.
s, _ = limits("scenarios/plan/serve_instances.yaml", "platform.groups.gpu.count=1")
b = s["bottlenecks"]["chat"]
outside = b["shares"].get("waiting for KV memory", 0) + b["shares"].get("waiting for a batch slot", 0)
check(b["limit"].startswith("waiting for") and outside > 0.9, f"overloaded serving: {b['shares']}")
# The same with 16 GB of HBM: KV memory keeps them out. With 8 sequences a batch: batch slots do.
s, _ = limits("scenarios/plan/serve_instances.yaml", "platform.groups.gpu.count=1", "platform.groups.gpu.gpu.hbm=16GB")
b = s["bottlenecks"]["chat"]
check(b["limit"] == "waiting for KV memory" and b["share"] > 0.9, f"KV-capacity-bound serving: {b['shares']}")
s, _ = limits("scenarios/plan/serve_instances.yaml", "platform.groups.gpu.count=1",
              "phases.chat.batching.max_batch_size=8")
b = s["bottlenecks"]["chat"]
check(b["limit"] == "waiting for a batch slot" and b["share"] > 0.9, f"batch-slot-bound serving: {b['shares']}")
# 15 GB of HBM holds no request: every one is turned away, which no time measures.
s, out = limits("scenarios/plan/serve_instances.yaml", "platform.groups.gpu.count=30",
                "platform.groups.gpu.gpu.hbm=15GB")
b = s["bottlenecks"]["chat"]
check(b["limit"] == "turned away: KV capacity" and b["share"] is None and b["turned_away"] == {"KV capacity": 4000},
      f"every request turned away: {b}")
check("| chat | turned away: KV capacity |  |  |  | 4000 (KV capacity) |" in open(os.path.join(out, "report.md")).read(),
      "report.md counts the requests turned away")

# A bag of tasks computes: nothing else.
s, _ = limits("tests/inputs/tasks_fcfs_identical.yaml")
b = next(iter(s["bottlenecks"].values()))
check(b["limit"] == "compute" and b["share"] == 1, f"tasks compute: {b['shares']}")

# The demo: the crawl waits at the file system's disks (behind the serving system's KV writes).
s, out = limits("scenarios/lifecycle.yaml")
b = s["bottlenecks"]["crawl"]
check(b["limit"] == "pfs disk queue" and b["share"] > 0.9, f"lifecycle crawl: {b['shares']}")
s2, _ = limits("scenarios/lifecycle.yaml", "phases.serve.enabled=false")
check(s2["bottlenecks"]["crawl"]["share"] < b["share"] or s2["bottlenecks"]["crawl"]["limit"] != "pfs disk queue",
      f"without serving, the crawl waits less at the disks: {s2['bottlenecks']['crawl']['shares']}")
# Mooncake's KV writes to the pool's SSD tier on pfs: background work, counted apart from the
# serve phase's requests' time.
b = s["bottlenecks"]["serve"]
check(b["background_seconds"].get("pfs disks", 0) > 0 and "pfs disks" not in b["shares"],
      f"serve's KV writes are background: {b['background_seconds']} apart from {b['shares']}")
report = open(os.path.join(out, "report.md")).read()
check("## What limited each phase" in report and "| crawl | pfs disk queue |" in report,
      "report.md names each phase's limit")
finish()
