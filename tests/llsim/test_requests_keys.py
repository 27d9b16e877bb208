"""Reading what was never written (issue 27, item 9): a `requests` phase's storage reads and
memory_pool gets find what a phase wrote under their key; a key no phase has written is a miss,
answered at once with no bytes moved and counted in the phase's `misses`. A forwarding service
cannot be loaded by a requests phase (an error at load)."""
import os

from harness import check, finish, run, scratch_dir, summary

PLATFORM = """name: keys
seed: 1
platform:
  groups:
    clients: {count: 2, nic: {bandwidth: 10GBps, latency: 5us}}
    oss: {count: 2, nic: {bandwidth: 10GBps, latency: 5us}, disks: {count: 2, read: 1GBps, write: 1GBps, capacity: 1TB}}
    cpu: {count: 2, memory: 64GB, nic: {bandwidth: 10GBps, latency: 5us}}
  backbone: {bandwidth: 100GBps, latency: 5us}
services:
  fs: {kind: storage, servers: oss}
  kv: {kind: memory_pool, servers: cpu, capacity: 10GB}
phases:
"""


def simulate(phases, expect=0):
    folder = scratch_dir()
    path = os.path.join(folder, "keys.yaml")
    with open(path, "w") as f:
        f.write(PLATFORM + phases)
    out = os.path.join(folder, "out")
    _, _, err = run("run", path, "--quiet", "--out", out, expect=expect)
    return (summary(out), err) if expect == 0 else (None, err)


# Reads of files no phase wrote: all misses, nothing read.
s, _ = simulate("  - {name: read, kind: requests, clients: clients, service: fs, op: read, count: 20, keys: 20, "
                "bytes: 1GB}\n")
m = s["phases"]["read"]
check(m["misses"] == 20 and m["hits"] == 0 and m["completed"] == 20,
      f"20 reads of unwritten files are 20 misses: {m['misses']} misses, {m['hits']} hits")
check(s["services"]["fs"]["bytes_read"] == 0, f"nothing is read: {s['services']['fs']['bytes_read']} B")

# 10 files written by one phase, 20 read by the next: 10 hits that read what was written, 10 misses.
s, _ = simulate("  - {name: write, kind: requests, clients: clients, service: fs, op: write, count: 10, keys: 10, "
                "bytes: 100MB}\n"
                "  - {name: read, kind: requests, after: [write], clients: clients, service: fs, op: read, "
                "count: 20, keys: 20}\n")
m = s["phases"]["read"]
check(m["hits"] == 10 and m["misses"] == 10, f"10 of 20 keys written: {m['hits']} hits, {m['misses']} misses")
check(s["services"]["fs"]["bytes_read"] == 10 * 100e6,
      f"a read reads its file, all of it when bytes is 0: {s['services']['fs']['bytes_read']} B")
check(s["phases"]["write"]["hits"] == 0 and s["phases"]["write"]["misses"] == 0, "writes count no hits or misses")

# bytes caps a read at that much of the file.
s, _ = simulate("  - {name: write, kind: requests, clients: clients, service: fs, op: write, count: 4, keys: 4, "
                "bytes: 100MB}\n"
                "  - {name: read, kind: requests, after: [write], clients: clients, service: fs, op: read, "
                "count: 8, keys: 4, bytes: 10MB}\n")
check(s["services"]["fs"]["bytes_read"] == 8 * 10e6, f"8 reads of 10 MB: {s['services']['fs']['bytes_read']} B")

# memory_pool gets of blocks no phase put: misses too.
s, _ = simulate("  - {name: get, kind: requests, clients: clients, service: kv, op: get, count: 20, keys: 20}\n")
m = s["phases"]["get"]
check(m["misses"] == 20 and m["hits"] == 0, f"20 gets of unput blocks are misses: {m['misses']}")
check(s["services"]["kv"]["bytes"] == 0, f"no block moves: {s['services']['kv']['bytes']} B")

finish()
