"""A client host's page cache (storage `client_cache`, issue 42) against closed forms:

- one client host whose cache holds the whole unet3d dataset reads it from the servers in the
  first epoch only: the servers deliver one epoch's bytes, the cache the other four, and AU is
  (first epoch's storage-bound AU + 4 x 1) / 5 within 3%;
- a cache smaller than one file keeps nothing: one reader's run is the run without a cache; eight
  ranks reading ahead across an epoch's end share a file's read in flight rather than ask twice;
- a cache of half the dataset: what a rank finds there in an epoch is at most what the cache held
  when the epoch began, so the four later epochs find at most 4 x the cache and more than nothing;
- what a host wrote it reads back from its cache, unless it went down in between (its memory is
  lost); a host's cache is its own: what another host wrote it reads from the servers;
- a read of a file removed while the read was in flight keeps nothing: the run where the file
  is replaced during the read and the one where it is replaced after it read the same bytes;
- a checkpoint's shards are written and read by target, past the cache (MLPerf's dropped cache):
  a save and load with a cache of 1 TB take what they take without one.
"""
import os

from harness import check, check_close, finish, run, scratch_dir, summary, run_out

DLIO = "tests/inputs/dlio.yaml"
UNET_B = 146600628
DATASET_B = 1120 * UNET_B
ONE_HOST = ["platform.groups.clients.count=1", "phases.unet3d.record_length_stdev=0B", "phases.unet3d.epochs=5"]


def dlio(*sets):
    out = run_out(DLIO, *ONE_HOST, *sets)
    s = summary(out) if out else None
    return (s["phases"]["unet3d"], s["services"]["fs"]) if s else (None, None)


base, base_fs = dlio()
held, held_fs = dlio("services.fs.client_cache=200GB")
if base and held:
    check_close(base_fs["bytes_read"], 5 * DATASET_B, 1e-9, "without a cache the servers deliver 5 epochs")
    check_close(held_fs["bytes_read"], DATASET_B, 1e-9, "a cache holding the dataset: the servers deliver one epoch")
    check_close(held_fs["client_cache_bytes_read"], 4 * DATASET_B, 1e-9, "and the cache the other four")
    check_close(held["bytes_read"], base["bytes_read"], 1e-9, "the ranks read the same samples either way")
    # The first epoch is storage-bound (16 GB/s of disks); the later ones wait for nothing (AU 1).
    # Without a cache the first epoch's end also reads the next one's first batches (8 ranks x 4
    # threads x 1 batch of 7 samples: 224 of its 1,120); with one they are in memory, so its AU lies
    # between the storage-bound one and that with a fifth fewer bytes.
    storage_bound = 0.323 * 16e9 / (UNET_B * 7 * 8)
    low, high = (storage_bound + 4) / 5, (storage_bound * 1120 / (1120 - 224) + 4) / 5
    check(0.99 * low <= held["au"] <= 1.01 * high,
          f"AU {held['au']:.3f} within [{low:.3f}, {high:.3f}], the first epoch storage-bound, the 4 others at 1 "
          f"(without a cache: {base['au']:.3f})")

ONE_READER = ["phases.unet3d.accelerators=1", "phases.unet3d.read_threads=1"]
alone, _ = dlio(*ONE_READER)
small, small_fs = dlio(*ONE_READER, "services.fs.client_cache=100MB")
if alone and small:
    check(small_fs["client_cache_bytes_read"] == 0 and small == alone,
          f"one reader, a cache smaller than a 146.6 MB file keeps nothing: AU {small['au']} against {alone['au']}")
# Eight ranks read ahead across an epoch's end, so a file may be asked for while another rank
# is still reading it: the second read waits for the first (a page under I/O is locked).
shared, shared_fs = dlio("services.fs.client_cache=100MB")
if base and shared:
    check(0 < shared_fs["client_cache_bytes_read"] and shared_fs["bytes_read"] < base_fs["bytes_read"],
          f"a read of a file in flight waits for it: {shared_fs['client_cache_bytes_read']:.4g} B not asked again")
    check_close(shared_fs["client_cache_bytes_read"] + shared_fs["bytes_read"], 5 * DATASET_B, 1e-9,
                "every byte comes from the cache, a read in flight or the servers")

half_B = DATASET_B / 2
half, half_fs = dlio(f"services.fs.client_cache={half_B:.0f}B")
if half:
    hits = half_fs["client_cache_bytes_read"]
    check(0 < hits <= 4 * half_B, f"half the dataset cached: 0 < {hits:.4g} B found <= 4 x {half_B:.4g} B")
    check_close(hits + half_fs["bytes_read"], 5 * DATASET_B, 1e-9, "every byte comes from the cache or the servers")

# Two client hosts a and b; `fs` has a page cache, `idle` none (a phase that only waits reads it).
TWO_HOSTS = """name: cache-hosts
seed: 1
platform:
  groups:
    a: {count: 1, nic: {bandwidth: 10GBps, latency: 5us}}
    b: {count: 1, nic: {bandwidth: 10GBps, latency: 5us}}
    oss: {count: 2, nic: {bandwidth: 10GBps, latency: 5us}, disks: {count: 2, read: 1GBps, write: 1GBps, capacity: 1TB}}
  backbone: {bandwidth: 100GBps, latency: 5us}
services:
  fs: {kind: storage, servers: oss, client_cache: CACHE}
  idle: {kind: storage, servers: oss}
phases:
"""
folder = scratch_dir()


def two_hosts(label, phases, cache="10GB", faults=""):
    """Runs the two hosts with these phases; returns the summary (None if the run failed)."""
    path = os.path.join(folder, label + ".yaml")
    with open(path, "w") as f:
        f.write(TWO_HOSTS.replace("CACHE", cache).replace("services:", faults + "services:") + phases)
    out = os.path.join(folder, "out_" + label)
    code, _, _ = run("run", path, "--quiet", "--out", out)
    return summary(out) if code == 0 else None


def from_where(s):
    """(bytes from the servers, bytes from the page cache) of `fs`."""
    return (s["services"]["fs"]["bytes_read"], s["services"]["fs"]["client_cache_bytes_read"])


# Files written, then read: by the host that wrote them, and by the other one.
for writers, readers, expected in (("a", "a", (0, 1e9)), ("a", "b", (1e9, 0))):
    s = two_hosts(f"{writers}_{readers}",
                  f"  - {{name: write, kind: requests, clients: {writers}, service: fs, op: write, count: 10, keys: 10, "
                  f"bytes: 100MB}}\n"
                  f"  - {{name: read, kind: requests, after: [write], clients: {readers}, service: fs, op: read, "
                  f"count: 10, keys: 10}}\n")
    check(s and from_where(s) == expected, f"written by {writers}, read by {readers}: (servers, cache) "
          f"{s and from_where(s)}, expected {expected}")

# The writer goes down (0.5 s to 0.6 s, between its writes and its reads): its cache is empty.
with open(os.path.join(folder, "down.csv"), "w") as f:
    f.write("host,down_at,up_at\na-0,0.5,0.6\n")
REBOOT = """  - {name: write, kind: requests, clients: a, service: fs, op: write, count: 10, keys: 10, bytes: 100MB}
  - {name: wait, kind: requests, after: [write], clients: b, service: idle, op: read, count: 2, keys: 1, arrival: 1s}
  - {name: read, kind: requests, after: [wait], clients: a, service: fs, op: read, count: 10, keys: 10}
"""
for faults, expected in (("", (0, 1e9)), ("faults: [{group: a, impl: trace, file: down.csv}]\n", (1e9, 0))):
    s = two_hosts("reboot" if faults else "up", REBOOT, faults=faults)
    if s:
        check(s["phases"]["wait"]["end_s"] > 0.6, f"the reads start after the outage: {s['phases']['wait']['end_s']} s")
        check(from_where(s) == expected, f"{'a host that went down' if faults else 'a host that stayed up'}: "
              f"(servers, cache) {from_where(s)}, expected {expected}")

# Host b reads F1 (100 MB) and F0 (200 MB) into a cache of 350 MB while host a replaces F0 (a
# write to its key is a new file; the old one is removed), during b's read or after it. Either
# way b keeps the new F0 only once it reads it, so the last reads find the same bytes.
REPLACED = """  - {name: w0, kind: requests, clients: a, service: fs, op: write, count: 2, keys: 2, bytes: 100MB}
  - {name: w0b, kind: requests, after: [w0], clients: a, service: fs, op: write, count: 1, keys: 1, bytes: 200MB}
  - {name: ra, kind: requests, after: [w0b], clients: b, service: fs, op: read, count: 2, keys: 2}
  - {name: wait, kind: requests, after: [w0b], clients: a, service: idle, op: read, count: 2, keys: 1, arrival: DELAY}
  - {name: wb, kind: requests, after: [wait], clients: a, service: fs, op: write, count: 1, keys: 1, bytes: 200MB}
  - {name: rc, kind: requests, after: [ra, wb], clients: b, service: fs, op: read, count: 1, keys: 1}
  - {name: rd, kind: requests, after: [rc], clients: b, service: fs, op: read, count: 2, keys: 2}
"""
found = {}
for delay in ("0.02s", "0.5s"):
    s = two_hosts("replaced_" + delay, REPLACED.replace("DELAY", delay), cache="350MB")
    if s:
        found[delay] = from_where(s)
check(len(found) == 2 and found["0.02s"] == found["0.5s"],
      f"F0 replaced during b's read or after it: the same bytes from the servers and the cache: {found}")

# A checkpoint passes the cache by.
CKPT = "tests/inputs/dlio_checkpoint.yaml"
out_a, out_b = run_out(CKPT), run_out(CKPT, "services.fs.client_cache=1TB")
if out_a and out_b:
    a, b = summary(out_a), summary(out_b)
    check(a["phases"]["ckpt"]["load_s"] == b["phases"]["ckpt"]["load_s"] and
          b["services"]["fs"]["client_cache_bytes_read"] == 0,
          f"a checkpoint load reads its shards from the servers: {b['phases']['ckpt']['load_s']} s with a cache")

finish()
