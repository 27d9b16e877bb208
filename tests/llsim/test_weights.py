"""Weights loaded through the services before serving (sim/serve/weights/weight_source.hpp), checked
through llsim against closed forms: one instance's load time is its bytes over the narrowest of its
NIC, the servers' NICs and the disks; 64 at once share the disks; the host's own copy and a peer
are read at their own bandwidth. A failure during a load starts it over, and no instance serves
before its load is complete. Missing weights are errors that name the path."""
import csv
import os

from harness import (check, check_close, finish, phase_metrics, run, run_fails, run_out, scratch_dir,
                     summary)

LOAD = "tests/inputs/weights_load.yaml"  # 1 instance, pfs of 4 servers x 2 disks of 2 GB/s
SOURCES = "tests/inputs/weights_sources.yaml"  # 2 instances, gpu-1 down 30-40 s
TRAIN = "tests/inputs/weights_train_serve.yaml"  # serve loads the train phase's checkpoint
W = 141.2e9  # Llama-3-70B's weights in BF16 (70.6 G parameters x 2 B)


def serve(scenario, *sets):
    out = run_out(scenario, *sets)
    with open(os.path.join(out, "chat_loads.csv")) as f:
        loads = list(csv.DictReader(f))
    return summary(out), loads, out


# One instance: disk-bound (8 disks x 2 GB/s), NIC-bound (its 5 GB/s NIC), server-NIC-bound
# (4 servers x 3 GB/s).
for label, sets, bandwidth in [("disks", [], 16e9),
                               ("the instance's NIC", ["platform.groups.gpu.nic.bandwidth=5GBps"], 5e9),
                               ("the servers' NICs", ["platform.groups.oss.nic.bandwidth=3GBps"], 12e9)]:
    s, loads, _ = serve(LOAD, *sets)
    m = s["phases"]["chat"]
    check_close(m["time_to_serve_s"], W / bandwidth, 0.03, f"one load bound by {label}")
    check(m["weight_loads"] == 1 and m["weight_bytes_loaded"] == W and s["services"]["pfs"]["bytes_read"] == W,
          f"{label}: one load of the model's bytes: {m['weight_loads']} loads, {m['weight_bytes_loaded']} B")
    check(loads[0]["source"] == "pfs" and loads[0]["completed"] == "1", f"{label}: the load's record: {loads[0]}")

# A declared set's shards and stripe_count place it: one file on one 2 GB/s disk, two files on two.
for shards, disks in [(1, 1), (2, 2)]:
    m = phase_metrics(LOAD, "chat", f"services.pfs.files=[{{path: models/llama3-70b, bytes: 141.2GB, shards: {shards}, "
                      "stripe_count: 1}]")
    check_close(m["time_to_serve_s"], W / (disks * 2e9), 0.03, f"{shards} shard(s) on one disk each")

# The request that arrived during the load waited for it.
s, _, out = serve(LOAD)
with open(os.path.join(out, "chat_requests.csv")) as f:
    first = float(next(csv.DictReader(f))["first_token_s"])
check(first > s["phases"]["chat"]["time_to_serve_s"], f"the first token ({first} s) comes after the load")

# 64 instances at once on disk-bound servers: 64 x W over the disks' 16 GB/s (the requests come
# after the loads, so that none is abandoned when the phase ends).
s, loads, _ = serve(LOAD, "platform.groups.gpu.count=64", "phases.chat.workload.requests=2",
                    "phases.chat.workload.arrival=600s")
check_close(s["phases"]["chat"]["time_to_serve_s"], 64 * W / 16e9, 0.03, "64 loads at once share the disks")
check(len(loads) == 64 and s["services"]["pfs"]["bytes_read"] == 64 * W, f"64 loads of W: {len(loads)}")

# chunk changes the load: one 16 GiB request per file reads, then sends.
base = phase_metrics(LOAD, "chat")["time_to_serve_s"]
slower = phase_metrics(LOAD, "chat", "phases.chat.weights.chunk=16GiB")["time_to_serve_s"]
check(slower > base * 1.01, f"weights.chunk=16GiB: the load takes longer ({slower} s against {base} s)")
# in_flight sets how many requests a load has queued at the disks against a checkpoint's writes
# (scale_out.yaml, 8 instances): 16 per rank (4 per file) take a larger share than 4 (1 per file).
few = phase_metrics("scenarios/paper/scale_out.yaml", "scale-out", "platform.groups.gpu.count=8")
many = phase_metrics("scenarios/paper/scale_out.yaml", "scale-out", "platform.groups.gpu.count=8",
                     "phases.scale-out.weights.in_flight=16")
check(many["time_to_serve_s"] < 0.9 * few["time_to_serve_s"],
      f"weights.in_flight=16 loads sooner beside the checkpoint: {many['time_to_serve_s']} s against "
      f"{few['time_to_serve_s']} s")

# A failure during the load (gpu-0 down 4-14 s) starts it over when the host is back; the
# request queued there is lost, and nothing is served before the second load is complete (the
# second request, at 20 s, waits for it).
s, loads, out = serve(LOAD, "faults=[{group: gpu, impl: trace, file: weights_gpu_down.csv}]",
                      "phases.chat.workload.requests=2", "phases.chat.workload.arrival=20s")
m = s["phases"]["chat"]
check([(l["start_s"], l["end_s"], l["completed"]) for l in loads][0] == ("0", "4", "0"),
      f"the first load is cut at 4 s: {loads[0]}")
check(len(loads) == 2 and float(loads[1]["start_s"]) == 14 and loads[1]["completed"] == "1",
      f"the load starts over at 14 s: {loads}")
check_close(float(loads[1]["seconds"]), W / 16e9, 0.03, "the second load reads every byte again")
check(m["weight_loads_interrupted"] == 1 and m["weight_loads"] == 1 and m["failed"] == 1,
      f"one load cut, one completed, the queued request lost: {m['weight_loads_interrupted']}, "
      f"{m['weight_loads']}, {m['failed']}")
check(not os.path.exists(os.path.join(out, "chat_instances.csv")) or
      all(float(r["time_s"]) >= float(loads[1]["end_s"]) for r in csv.DictReader(open(os.path.join(
          out, "chat_instances.csv")))), "no iteration before the complete load")

# Reloading gpu-1 at 40 s: from pfs again (alone: 8.8 s), from its own NVMe copy written after
# its first load (2 disks x 6 GB/s: 11.8 s), or from the loaded peer over the 25 GB/s NICs (5.6 s).
for weights, source, bandwidth in [("{path: models/llama3-70b, from: pfs}", "pfs", 16e9),
                                   ("{path: models/llama3-70b, from: nvme, fill_from: pfs}", "nvme (own copy)", 12e9),
                                   ("{path: models/llama3-70b, from: peers, fill_from: pfs}", "peer instance 0", 25e9)]:
    s, loads, _ = serve(SOURCES, f"phases.chat.weights={weights}")
    first = [l for l in loads if l["start_s"] == "0"]
    check(len(first) == 2 and all(l["completed"] == "1" for l in first), f"{source}: both load at the start")
    # Both read pfs at once, except from peers: one reads it alone, then sends to the other.
    expected = W / 16e9 + W / 25e9 if source.startswith("peer") else 2 * W / 16e9
    check_close(max(float(l["seconds"]) for l in first), expected, 0.03, f"{source}: the two first loads")
    again = [l for l in loads if l["start_s"] == "40"]
    check(len(again) == 1 and again[0]["instance"] == "1" and again[0]["source"] == source,
          f"gpu-1 loads again at 40 s from {source}: {again}")
    check_close(float(again[0]["seconds"]), W / bandwidth, 0.03, f"the reload from {source}")

# Peers as a broadcast: 8 instances start together; one reads pfs (8.8 s), then each holder sends
# to one peer at a time over the 25 GB/s NICs: 1 -> 2 -> 4 -> 8 holders in three copies of 5.6 s.
s, loads, _ = serve(LOAD, "platform.groups.gpu.count=8", "phases.chat.workload.requests=2",
                    "phases.chat.workload.arrival=100s",
                    "phases.chat.weights={path: models/llama3-70b, from: peers, fill_from: pfs}")
sources = sorted(l["source"].split(" instance")[0] for l in loads)
check(sources == ["peer"] * 7 + ["pfs (no peer held them)"], f"one instance seeds, seven copy: {sources}")
check_close(s["phases"]["chat"]["time_to_serve_s"], W / 16e9 + 3 * W / 25e9, 0.03, "a broadcast in log2(8) rounds")
check(s["services"]["pfs"]["bytes_read"] == W, "pfs is read once")

# A load cut short by the phase's end is abandoned and stops reading: the single request ends at
# about 9 s, while the second instance's copy from its peer (25 GB/s) would have run until 14.5 s.
s, loads, _ = serve(LOAD, "platform.groups.gpu.count=2",
                    "phases.chat.weights={path: models/llama3-70b, from: peers, fill_from: pfs, chunk: 1GiB}")
outcomes = sorted(l["outcome"] for l in loads)
check(outcomes == ["abandoned", "completed"], f"the copy the phase's end cut is abandoned: {outcomes}")

# train -> serve through storage: the serve phase reads the newest checkpoint's first 40 GB (a
# 20 G-parameter model in BF16) from the 8 disks the balanced layout wrote it on.
s, loads, _ = serve(TRAIN)
check(len(loads) == 1 and float(loads[0]["bytes"]) == 40e9, f"the checkpoint's weights are read: {loads}")
check_close(float(loads[0]["seconds"]), 40e9 / 16e9, 0.03, "the checkpoint's weights come from all its disks")
check(float(loads[0]["start_s"]) == s["phases"]["train"]["end_s"], "the load starts when training ends")
run_fails(TRAIN, "weights.path: no file set 'train/checkpoint' on storage 'pfs'",
          "phases.train.checkpoint.path=v2/checkpoint")
code, _, err = run("run", TRAIN, "--out", os.path.join(scratch_dir(), "out"), "--set", "phases.chat.after=[]",
                   expect=1)
check("no weights at 'train/checkpoint' on storage 'pfs'" in err, f"served before training wrote it: {err.strip()}")
code, _, err = run("run", TRAIN, "--out", os.path.join(scratch_dir(), "out"),
                   "--set", "phases.chat.model={params: 200G, layers: 48, d_model: 6144, kv_heads: 8, head_dim: 128}",
                   "--set", "platform.groups.gpu.gpu.hbm=141GB", expect=1)
check("hold 280 GB, less than the model's 400 GB of weights" in err, f"a checkpoint too small: {err.strip()}")

# A pipeline-parallel instance (pp 2: two engines on the host's 8 GPUs) loads once for both: one
# record, W read once at the disks' 16 GB/s, and neither engine iterates before it.
PP = "phases.chat.system={impl: vllm, instances: gpu, pp: 2}"
s, loads, out = serve(LOAD, PP)
check(len(loads) == 1 and loads[0]["instance"] == "0" and s["services"]["pfs"]["bytes_read"] == W,
      f"pp 2: one load of W for the instance's two engines: {loads}, {s['services']['pfs']['bytes_read']} B read")
check_close(s["phases"]["chat"]["time_to_serve_s"], W / 16e9, 0.03, "pp 2: the load at the disks' 16 GB/s")
with open(os.path.join(out, "chat_instances.csv")) as f:
    rows = list(csv.DictReader(f))
check(rows and all(float(r["time_s"]) >= float(loads[0]["end_s"]) for r in rows), "pp 2: no engine iterates before")
# Requests sent to both engines in turn, from the start: the second engine waits for the shared
# load too.
s, loads, out = serve(LOAD, "phases.chat.system={impl: vllm, instances: gpu, pp: 2, router: round_robin}",
                      "phases.chat.workload.requests=4", "phases.chat.workload.arrival=1s")
with open(os.path.join(out, "chat_instances.csv")) as f:
    rows = list(csv.DictReader(f))
check({r["instance"] for r in rows} == {"0", "1"} and len(loads) == 1 and
      all(float(r["time_s"]) >= float(loads[0]["end_s"]) for r in rows),
      f"pp 2, round robin: both engines serve, neither before the one load ({loads[0]['end_s']} s)")
# A failure of the host at 4 s cuts the shared load; it starts over at 14 s, once.
s, loads, _ = serve(LOAD, PP, "faults=[{group: gpu, impl: trace, file: weights_gpu_down.csv}]",
                    "phases.chat.workload.requests=2", "phases.chat.workload.arrival=20s")
check([(l["start_s"], l["outcome"]) for l in loads] == [("0", "interrupted"), ("14", "completed")],
      f"pp 2: the cut load starts over once for both engines: {loads}")
check_close(float(loads[1]["seconds"]), W / 16e9, 0.03, "pp 2: the second load reads every byte again")
check(s["phases"]["chat"]["completed"] + s["phases"]["chat"]["failed"] == 2, "pp 2: every request ends")

# Bad input: located errors, no output.
run_fails(SOURCES, "weights: weights.fill_from fills the hosts' own copies, but storage 'pfs' is not on every",
          "phases.chat.weights={path: models/llama3-70b, from: pfs, fill_from: nvme}")
run_fails(LOAD, "weights.path: the files at 'models/llama3-70b' on storage 'pfs' hold 100 GB, less than the",
          "services.pfs.files=[{path: models/llama3-70b, bytes: 100GB}]")
run_fails(SOURCES, "weights.path: the files at 'models/llama3-70b' on storage 'nvme' hold 100 GB, less than the",
          "services.nvme={kind: storage, servers: gpu, files: [{path: models/llama3-70b, bytes: 100GB, local: true}]}",
          "phases.chat.weights={path: models/llama3-70b, from: nvme}")
run_fails(LOAD, "weights.path: no file set 'models/llama3-8b' on storage 'pfs'",
          "phases.chat.weights.path=models/llama3-8b")
run_fails(LOAD, "weights.fill_from: is the service the weights come from", "phases.chat.weights.fill_from=pfs")
run_fails(LOAD, "weights.from: the first instance has no peer to load from", "phases.chat.weights.from=peers")
run_fails(LOAD, "weights.from: no service named 'nfs'", "phases.chat.weights.from=nfs")
run_fails(LOAD, "weights.in_flight", "phases.chat.weights.in_flight=0")
run_fails(LOAD, "files[0].bytes: the declared files do not fit", "platform.groups.oss.disks.capacity=10GB")
run_fails(LOAD, "files[0].bytes: value -1 GB is out of range", "services.pfs.files=[{path: models/llama3-70b, bytes: -1GB}]")
run_fails(LOAD, "files[0].shards: value 0 is out of range", "services.pfs.files=[{path: m, bytes: 1GB, shards: 0}]")
run_fails(LOAD, "files[0].stripe_count: a local copy lies on its server's disks",
          "services.pfs.files=[{path: m, bytes: 1GB, local: true, stripe_count: 1}]")
run_fails(LOAD, "files[0].path: expected a name", "services.pfs.files=[{path: '', bytes: 1GB}]")
run_fails(LOAD, "files: expected a list", "services.pfs.files={path: m, bytes: 1GB}")
finish()
