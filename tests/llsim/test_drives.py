"""Drives against their closed forms (issue 42): a disk serves up to `parallelism` requests at
once, each waiting its `latency`, their bytes crossing the media one after another at the read
or write bandwidth, no more than `read_iops` / `write_iops` starting per second.

- A 1 TB write striped over N NVMe drives behind one 400 Gb/s NIC takes bytes / min(NIC,
  N x drive write bandwidth), within 3%: the NIC limits 16 drives, the drives limit 4 and 2.
- Small random reads arriving faster than a drive serves them complete at min(IOPS,
  parallelism / latency) (Little's law: requests in service = rate x time in service), within
  3%; writes at the write IOPS.
- A storage server's per-request cost limits small requests to threads / request_cost; a
  client host's file system client limits its bytes to client_bandwidth and its requests to
  client_request_rate; a client thread's requests last at least 1 / thread_request_rate (one
  DLIO rank's read threads, closed form of its AU).
- A server outage drains a drive's queue without booking its IOPS for the failed requests.
- A hard disk of the catalogue: its two actuators against one.
- A preset's figures fill what the scenario leaves out, show in resolved.yaml, and a bad preset
  or missing figure is an error at its line.
"""
import os

from harness import check, check_close, finish, phase_metrics, run_fails, run_out

BIG = "tests/inputs/drives.yaml"
SMALL = "tests/inputs/drive_random_reads.yaml"
TB = 1e12
NIC = 400e9 / 8
WRITE_7450 = 5.6e9  # micron-7450-pro-7.68tb (sim/platform/disk_presets.cpp)

# 1 TB from 8 clients (125 GB each) onto 16, 4 and 2 drives.
for drives in (16, 4, 2):
    m = phase_metrics(BIG, "write", f"platform.groups.server.disks.count={drives}")
    if m:
        bound = min(NIC, drives * WRITE_7450)
        check_close(m["makespan_s"], TB / bound, 0.03,
                    f"{drives} drives: 1 TB at min(NIC {NIC / 1e9:.0f} GB/s, drives {drives * WRITE_7450 / 1e9:.1f} GB/s)")
        check(m["makespan_s"] >= TB / bound * (1 - 1e-9), f"{drives} drives: never faster than the bound")


# A file system client passing 2 GB/s on each of the 8 clients: 16 GB/s in all, below the
# NIC's 50 and the 16 drives' 89.6.
m = phase_metrics(BIG, "write", "services.fs.client_bandwidth=2GBps")
if m:
    check_close(m["makespan_s"], TB / (8 * 2e9), 0.03, "1 TB through 8 clients' 2 GB/s file system clients")


def read_rate(*sets):
    m = phase_metrics(SMALL, "read", *sets)
    return m["throughput_ops"] if m else float("nan")


# 4 clients' file system clients passing 50k requests/s each: 200k/s in all, below the drive's 1M/s.
check_close(read_rate("services.fs.client_request_rate=50k/s"), 4 * 50e3, 0.03,
            "4 KiB reads limited by 4 clients x client_request_rate 50k/s")
# A client thread's round trip: one cosmoflow rank (3.5 ms of compute per 2.83 MB sample) whose
# every read lasts at least 1 / 50 = 20 ms: with 1 read thread a step takes 20 ms, with 4 5 ms.
COSMO = ["phases.unet3d.workload=cosmoflow_h100", "phases.unet3d.accelerators=1", "phases.unet3d.files=2000",
         "phases.unet3d.epochs=1", "phases.unet3d.record_length_stdev=0B", "services.fs.thread_request_rate=50/s"]
for threads in (1, 4):
    m = phase_metrics("tests/inputs/dlio.yaml", "unet3d", *COSMO, f"phases.unet3d.read_threads={threads}")
    if m:
        check_close(m["au"], 3.5e-3 / (20e-3 / threads), 0.03,
                    f"cosmoflow, {threads} read threads of 50 requests/s each: AU = 3.5 ms / (20 ms / {threads})")


# IOPS-bound: the 7450's preset has read_iops = parallelism / latency = 1M/s (its parallelism
# is derived so); at 500k/s the IOPS alone limit.
check_close(read_rate("platform.groups.server.disks.read_iops=500k/s"), 500e3, 0.03,
            "4 KiB reads limited by read_iops 500k/s")
# Latency-bound (Little's law): 16 in service, 80 us each -> 200k/s; the IOPS limit is far above.
little = read_rate("platform.groups.server.disks.parallelism=16", "phases.read.arrival.value=4us")
check_close(little, 16 / 80e-6, 0.03, "4 KiB reads limited by parallelism / latency = 16 / 80 us")
# Twice the parallelism, twice the rate (the IOPS limit still above).
check_close(read_rate("platform.groups.server.disks.parallelism=32", "phases.read.arrival.value=2us"),
            2 * little, 0.03, "parallelism 32 reads twice as many as 16")
# Without the IOPS limit and with ample parallelism, the media's bandwidth: 6.8 GB/s / 4 KiB.
check_close(read_rate("platform.groups.server.disks.read_iops=0/s", "platform.groups.server.disks.parallelism=4096",
                      "platform.groups.server.disks.latency=1us", "phases.read.arrival.value=400ns"),
            6.8e9 / 4096, 0.03, "4 KiB reads limited by the read bandwidth")

# A server's per-request cost: each of 8 threads holds a read for its 100 us, then sends its
# 4 KiB over a route of three 1 us links at 100 GB/s; far below the drive's 1M/s.
thread_s = 100e-6 + 3e-6 + 4096 / 100e9
check_close(read_rate("services.fs.threads=8", "services.fs.request_cost=100us", "phases.read.arrival.value=10us"),
            8 / thread_s, 0.03, "4 KiB reads limited by threads / (request_cost + network) = 8 / 103 us")

# Writes: the Kioxia CM6-R's 170k write IOPS.
m = phase_metrics(SMALL, "write", "platform.groups.server.disks.preset=kioxia-cm6-r-30.72tb", "phases.write.count=20000",
                  "phases.write.arrival={dist: constant, value: 4us}")
if m:
    check_close(m["throughput_ops"], 170e3, 0.03, "4 KiB writes limited by write_iops 170k/s")

# A hard disk: the Exos 2X18's two actuators serve 2 / 4.16 ms = 481/s, above its 304 read IOPS;
# one actuator serves 1 / 4.16 ms = 240/s.
HDD = ["platform.groups.server.disks.preset=seagate-exos-2x18-18tb", "phases.read.count=1500",
       "phases.read.arrival.value=1ms"]
check_close(read_rate(*HDD), 304, 0.03, "hard disk, two actuators: its 304 read IOPS")
check_close(read_rate(*HDD, "platform.groups.server.disks.parallelism=1"), 1 / 4.16e-3, 0.03,
            "hard disk, one actuator: 1 / latency")

# An outage drains the drive's queue: the requests it interrupts (they wait for the server and
# go again) give back the IOPS time they had booked, so the drive goes on at its 100/s (one
# actuator, 100 IOPS, down 1 ms at 5 s of a 10 s run).
OUTAGE = ["platform.groups.server.disks.read_iops=100/s", "platform.groups.server.disks.parallelism=1",
          "phases.read.count=1000", "phases.read.arrival.value=5ms",
          "faults=[{group: server, impl: trace, file: drive_outage.csv}]"]
m = phase_metrics(SMALL, "read", *OUTAGE)
if m:
    check(m["failed"] == 0 and m["completed"] == 1000, f"reads wait for the server: {m['failed']:g} failed")
    check_close(m["throughput_ops"], 100, 0.03, "after an outage the drive goes on at its 100 IOPS")

# The preset's figures are in resolved.yaml; a key given beside it wins.
out = run_out(BIG, "platform.groups.server.disks.latency=200us")
if out:
    resolved = open(os.path.join(out, "resolved.yaml")).read()
    for figure in ("read: 6.8GBps", "write: 5.6GBps", "read_iops: 1M/s", "parallelism: 80", "latency: 200us"):
        check(figure in resolved, f"resolved.yaml shows '{figure}'")

run_fails(BIG, "unknown drive 'micron-7450'", "platform.groups.server.disks.preset=micron-7450")
run_fails(BIG, "missing required key 'read' (a figure of one disk), or give a preset",
          "platform.groups.server.disks={count: 2, write: 1GBps, capacity: 1TB}")
run_fails(BIG, "parallelism", "platform.groups.server.disks.parallelism=0")
finish()
