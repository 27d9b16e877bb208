"""Weights cached in a memory_pool service (`weights: {from: <memory_pool>, fill_from: ...}`, sim/serve/
weight_pool.hpp), through llsim: the first loads read the file system and fill the pool; a reload
gets the pieces from the pool at the pool's bandwidth, one instance filling it; a pool that lost
or never kept a piece sends the load back to the file system, also in the middle of a load; a fill
that cannot complete, or that the phase's end stops, leaves nothing in the pool."""
import csv
import math
import os

from harness import check, check_close, finish, run_fails, run_out, summary

SOURCES = "tests/inputs/weights_sources.yaml"  # 2 instances load at 0 s; gpu-1 down 30-40 s, loads again
W = 141.2e9  # Llama-3-70B's weights in BF16
CHUNK = 256 * 2**20  # weights.chunk's default: the pool's pieces
POOL = ["platform.groups.dram={count: 1, nic: {bandwidth: 10GBps, latency: 0us}}",
        "services.wcache={kind: memory_pool, servers: dram, capacity: 200GB, threads: 8}",
        "phases.chat.weights={path: models/llama3-70b, from: wcache, fill_from: pfs}"]
GPU_FAULTS = "{group: gpu, impl: trace, file: weights_gpu1_down.csv}"


def serve(*sets):
    out = run_out(SOURCES, *POOL, *sets)
    with open(os.path.join(out, "chat_loads.csv")) as f:
        return summary(out), list(csv.DictReader(f))


s, loads = serve()
pool, pfs = s["services"]["wcache"], s["services"]["pfs"]
first = [l for l in loads if l["start_s"] == "0"]
check([l["source"] for l in first] == ["pfs (wcache lacked them)"] * 2,
      f"the pool starts empty: both first loads read pfs: {first}")
check_close(max(float(l["seconds"]) for l in first), 2 * W / 16e9, 0.03, "two loads share pfs's 16 GB/s")
again = [l for l in loads if l["start_s"] == "40"]
check(len(again) == 1 and again[0]["source"] == "wcache", f"gpu-1's reload at 40 s gets them from the pool: {again}")
check_close(float(again[0]["seconds"]), W / 10e9, 0.01, "the reload at the pool server's 10 GB/s NIC")
pieces = math.ceil(W / CHUNK)
check(pool["hits"] == pieces and pool["bytes"] == 2 * W and pool["stored_bytes"] == W,
      f"one fill and one reload of {pieces} pieces of 256 MiB move 2 x W through the pool: {pool}")
check(pool["operations"] == 2 * pieces, f"both first loads read pfs, one of them fills the pool: {pool['operations']} "
      f"operations for {pieces} pieces")
check(pfs["bytes_read"] == 2 * W, f"pfs is read by the first two loads only: {pfs['bytes_read']}")

# The chunk is the piece: 1 GiB pieces, fewer gets.
s, _ = serve("phases.chat.weights.chunk=1GiB")
check(s["services"]["wcache"]["hits"] == math.ceil(W / 2**30), f"1 GiB pieces: {s['services']['wcache']['hits']}")

# A fill that cannot complete: three servers of 47.1 GB that reject what they have no room for
# hold 141.3 GB, but the pieces hash unevenly over them. The pieces put are dropped; the reload reads pfs.
s, loads = serve("platform.groups.dram.count=3",
                 "services.wcache={kind: memory_pool, servers: dram, capacity: 47.1GB, threads: 8, eviction: {impl: none}}")
again = [l for l in loads if l["start_s"] == "40"]
check(s["services"]["wcache"]["rejected_puts"] > 0 and s["services"]["wcache"]["stored_bytes"] == 0 and
      again[0]["source"] == "pfs (wcache lacked them)", f"an incomplete fill leaves nothing: {s['services']['wcache']}")
check_close(float(again[0]["seconds"]), W / 16e9, 0.03, "the reload from pfs alone")
# The phase ends (its one request done at about 18 s) while the fill runs (W at 10 GB/s from 17.6 s):
# the fill stops and drops what it put.
s, _ = serve("faults=[]", "phases.chat.workload.requests=1", "phases.chat.workload.arrival=0s")
check(s["services"]["wcache"]["stored_bytes"] == 0 and 0 < s["services"]["wcache"]["bytes"] < W / 2,
      f"the phase's end stops the fill: {s['services']['wcache']}")

# The pool's host fails after the fill (35-36 s): its pieces are lost; the reload reads pfs.
s, loads = serve(f"faults=[{GPU_FAULTS}, {{group: dram, impl: trace, file: weights_dram_down_idle.csv}}]")
again = [l for l in loads if l["start_s"] == "40"]
check(again[0]["source"] == "pfs (wcache lacked them)" and s["services"]["wcache"]["lost_blocks"] == pieces,
      f"the pieces were lost with the pool's host: {again}")
# It fails during the reload (45-46 s): the load turns to pfs for all of the weights.
s, loads = serve(f"faults=[{GPU_FAULTS}, {{group: dram, impl: trace, file: weights_dram_down_load.csv}}]")
again = [l for l in loads if l["start_s"] == "40"]
check(len(again) == 1 and again[0]["completed"] == "1" and again[0]["source"] == "pfs (wcache lacked them)",
      f"a piece lost in the middle of a load: the load reads pfs: {again}")
check_close(float(again[0]["seconds"]), 5 + W / 16e9, 0.03, "5 s of gets, then all of the weights from pfs")

run_fails(SOURCES, "weights.from: memory pool 'wcache' holds 100 GB in all, less than the model's 141 GB of weights",
          *POOL, "services.wcache.capacity=100GB")
run_fails(SOURCES, "weights.from: memory pool 'wcache' holds 100 MB per server, less than a piece of the weights "
          "(chunk: 268 MB)", *POOL, "platform.groups.dram.count=2000", "services.wcache.capacity=100MB")
run_fails(SOURCES, "weights: weights.from: memory pool 'wcache' is on the instances' own hosts", *POOL,
          "services.wcache.servers=gpu")
run_fails(SOURCES, "weights.path: no file set 'models/llama3-70b' on storage 'nvme'", *POOL,
          "services.nvme.files=[{path: models/llama3-70b, bytes: 141.2GB, local: true}]",
          "phases.chat.weights={path: models/llama3-70b, from: wcache, fill_from: nvme}")
run_fails(SOURCES, "weights.from: service 'meta' is a metadata service; expected a storage service, a memory_pool "
          "service, or peers", "services.meta={kind: metadata, servers: oss}", "phases.chat.weights.from=meta")
run_fails(SOURCES, "weights.from: memory pool 'wcache' starts empty: name the storage service that fills it in "
          "fill_from", *POOL, "phases.chat.weights={path: models/llama3-70b, from: wcache}")
finish()
