"""A client host's page cache (storage `client_cache`, issue 42) against closed forms:

- one client host whose cache holds the whole unet3d dataset reads it from the servers in the
  first epoch only: the servers deliver one epoch's bytes, the cache the other four, and AU is
  (first epoch's storage-bound AU + 4 x 1) / 5 within 3%;
- a cache smaller than one file keeps nothing: one reader's run is the run without a cache; eight
  ranks reading ahead across an epoch's end share a file's read in flight rather than ask twice;
- a cache of half the dataset: what a rank finds there in an epoch is at most what the cache held
  when the epoch began, so the four later epochs find at most 4 x the cache and more than nothing;
- what a host wrote it reads back from its cache; what another host wrote it reads from the
  servers (the write made any copy stale);
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
    first_epoch_au = 0.323 * 16e9 / (UNET_B * 7 * 8)  # storage-bound: 16 GB/s of disks
    check_close(held["au"], (first_epoch_au + 4) / 5, 0.03,
                f"AU = (storage-bound first epoch + 4 epochs at 1) / 5: {held['au']:.3f} (without: {base['au']:.3f})")

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

# Files written, then read: by the host that wrote them, and by the other one.
REQUESTS = """name: cache-writes
seed: 1
platform:
  groups:
    a: {count: 1, nic: {bandwidth: 10GBps, latency: 5us}}
    b: {count: 1, nic: {bandwidth: 10GBps, latency: 5us}}
    oss: {count: 2, nic: {bandwidth: 10GBps, latency: 5us}, disks: {count: 2, read: 1GBps, write: 1GBps, capacity: 1TB}}
  backbone: {bandwidth: 100GBps, latency: 5us}
services:
  fs: {kind: storage, servers: oss, client_cache: 10GB}
phases:
  - {name: write, kind: requests, clients: WRITERS, service: fs, op: write, count: 10, keys: 10, bytes: 100MB}
  - {name: read, kind: requests, after: [write], clients: READERS, service: fs, op: read, count: 10, keys: 10}
"""
folder = scratch_dir()
for writers, readers, from_cache in (("a", "a", True), ("a", "b", False)):
    path = os.path.join(folder, "writes.yaml")
    with open(path, "w") as f:
        f.write(REQUESTS.replace("WRITERS", writers).replace("READERS", readers))
    out = os.path.join(folder, f"out_{from_cache}")
    code, _, _ = run("run", path, "--quiet", "--out", out)
    if code == 0:
        fs = summary(out)["services"]["fs"]
        expected = (0, 1e9) if from_cache else (1e9, 0)
        check((fs["bytes_read"], fs["client_cache_bytes_read"]) == expected,
              f"written by {writers}, read by {readers}: {fs['bytes_read']:.4g} B from the servers, "
              f"{fs['client_cache_bytes_read']:.4g} B from the cache (expected {expected})")

# A checkpoint passes the cache by.
CKPT = "tests/inputs/dlio_checkpoint.yaml"
out_a, out_b = run_out(CKPT), run_out(CKPT, "services.fs.client_cache=1TB")
if out_a and out_b:
    a, b = summary(out_a), summary(out_b)
    check(a["phases"]["ckpt"]["load_s"] == b["phases"]["ckpt"]["load_s"] and
          b["services"]["fs"]["client_cache_bytes_read"] == 0,
          f"a checkpoint load reads its shards from the servers: {b['phases']['ckpt']['load_s']} s with a cache")

finish()
