"""The `dlio` phase kind (issue 42, MLPerf Storage's training workload) against closed forms:

- storage-bound: 8 unet3d ranks on disks of 16 GB/s in all read at the disks' bandwidth, and
  AU = computation_time x steps per second = 0.323 s x 16 GB/s / (146.6 MB x 7 x 8), within 3%;
- compute-bound: on storage far faster than the ranks need, AU is above 0.97 and the only stall
  is the first batch's;
- latency-bound, one cosmoflow rank reading 2.83 MB samples whose reads take 10 ms: with
  prefetch (2 batches per read thread), a step takes max(compute, read / read_threads); without,
  compute + read;
- the loaders without prefetch: a PyTorch worker reads a batch's samples one after another,
  TensorFlow's and DALI's threads read them read_threads at a time;
- every workload figure (samples per file, batch size, spread of sizes, compute time, AU
  threshold) changes the run;
- `llsim plan` finds the most accelerators that keep AU >= 0.9 (MLPerf Storage's question);
- tfrecord streams a file's records in one read, npz reads each sample on its own;
- a DLIO workload file read unchanged gives the preset's results; keys beside it override it;
- a client host's failure ends the run with an error;
- a dataset too small for one step, an unknown workload, figures past llsim's limits: errors at
  their line (broken DLIO
  files: tests/bad/dlio/).
"""
import json
import os

from harness import check, check_close, finish, phase_metrics, run, run_fails, run_out, scratch_dir, summary

SCENARIO = "tests/inputs/dlio.yaml"
DISKS_BPS = 8 * 2e9
UNET_B = 146600628

# Storage-bound: 5 epochs of 1120 files, no spread in file size (so bytes = samples x record).
m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.record_length_stdev=0B", "phases.unet3d.epochs=5")
if m:
    check_close(m["bytes_read"] / m["makespan_s"], DISKS_BPS, 0.03, "storage-bound: read at the disks' 16 GB/s")
    check_close(m["au"], 0.323 * DISKS_BPS / (UNET_B * 7 * 8), 0.03, "storage-bound AU = compute x step rate")
    check(m["au_passed"] == 0 and m["au_threshold"] == 0.9, f"storage-bound fails its 90%: {m['au']}")
    check_close(m["throughput_MiBps"], m["samples_per_s"] * UNET_B / 2**20, 1e-9,
                "throughput = samples/s x record_length in MiB/s, as MLPerf reports it")
    check(m["steps"] == 5 * 1120 // (7 * 8), f"steps = epochs x files / (batch x ranks): {m['steps']}")

# Compute-bound: disks 10x faster; 8 ranks need 8 x 7 x 146.6 MB / 0.323 s = 25 GB/s of 160.
m = phase_metrics(SCENARIO, "unet3d", "platform.groups.storage.disks.read=20GBps")
if m:
    check(m["au"] > 0.97 and m["au_passed"] == 1, f"compute-bound: AU {m['au']:.3f} above 0.97, passed")
    # PyTorch: each of the 8 x 4 workers reads its first batch (7 samples) through the server's
    # 100 GB/s NIC at once; then nothing waits. 1.5x for the spread of the files' sizes.
    check(m["max_data_stall_s"] < 1.5 * 8 * 4 * 7 * UNET_B / 100e9,
          f"compute-bound: no stall but the first batch's ({m['max_data_stall_s']:.3f} s)")

# Latency-bound: one cosmoflow rank; each read waits 10 ms at a disk that serves 64 at once, and
# moves 2.83 MB at 1 TB/s (3 us).
COSMO = ["phases.unet3d.workload=cosmoflow_h100", "phases.unet3d.accelerators=1", "phases.unet3d.files=2000",
         "phases.unet3d.epochs=1", "phases.unet3d.record_length_stdev=0B", "platform.groups.storage.disks.latency=10ms",
         "platform.groups.storage.disks.parallelism=64", "platform.groups.storage.disks.read=1TBps"]
read_s = 10e-3 + 2828486 / 1e12 + 2828486 / 100e9 + 6e-6  # disk, then the server's NIC, then the route's latencies
for threads, prefetch, step_s in ((1, 2, max(3.5e-3, read_s)), (4, 2, max(3.5e-3, read_s / 4)),
                                  (4, 0, 3.5e-3 + read_s)):
    m = phase_metrics(SCENARIO, "unet3d", *COSMO, f"phases.unet3d.read_threads={threads}",
                      f"phases.unet3d.prefetch={prefetch}")
    if m:
        check_close(m["au"], 3.5e-3 / step_s, 0.03,
                    f"cosmoflow, {threads} read threads, prefetch {prefetch}: AU = compute / step")
        check(m["au_threshold"] == 0.7, "cosmoflow's threshold is 70%")

# Each workload figure a scenario can set changes the run (the storage-bound base above: 8 ranks,
# 1,120 files, 2 epochs).
base = phase_metrics(SCENARIO, "unet3d")
if base:
    m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.samples_per_file=2")
    check(m and m["steps"] == 2 * base["steps"], "samples_per_file 2: twice the samples, twice the steps")
    m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.batch_size=14")
    check(m and m["steps"] == base["steps"] // 2, "batch_size 14: half the steps")
    m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.record_length_stdev=0B")
    check(m and m["bytes_read"] != base["bytes_read"], "record_length_stdev: the files' sizes change")
    m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.computation_time=0.1s")
    check(m and m["au"] < 0.5 * base["au"], f"a third of the compute, storage-bound: AU {m and m['au']:.3f} drops "
          f"from {base['au']:.3f}")
    m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.au_threshold=0.5")
    check(m and base["au_passed"] == 0 and m["au_passed"] == 1 and m["au"] == base["au"],
          f"au_threshold 0.5: AU {base['au']:.3f} passes it, the same AU that fails 0.9")

# The loaders without prefetch, one unet3d rank of 1 MB samples whose reads take 10 ms: a
# PyTorch worker reads the asked batch's 7 samples one after another; TensorFlow's 4 threads
# read them 4 at a time, in 2 rounds.
UNET_SMALL = ["phases.unet3d.accelerators=1", "phases.unet3d.files=140", "phases.unet3d.epochs=1",
              "phases.unet3d.record_length=1MB", "phases.unet3d.record_length_stdev=0B", "phases.unet3d.prefetch=0",
              "platform.groups.storage.disks.latency=10ms", "platform.groups.storage.disks.parallelism=64",
              "platform.groups.storage.disks.read=1TBps"]
small_read_s = 10e-3 + 1e6 / 1e12 + 1e6 / 100e9 + 6e-6
for loader, rounds in (("pytorch", 7), ("tensorflow", 2), ("dali", 2)):
    m = phase_metrics(SCENARIO, "unet3d", *UNET_SMALL, f"phases.unet3d.data_loader={loader}")
    if m:
        check_close(m["au"], 0.323 / (0.323 + rounds * small_read_s), 0.03,
                    f"{loader} without prefetch: a batch takes {rounds} reads in a row")

# A DLIO workload file read unchanged (tests/inputs/dlio/unet3d_h100.yaml holds the figures the
# preset run gives): the same results; a key beside config overrides the file's figure.
preset_run = phase_metrics(SCENARIO, "unet3d")
from_file = phase_metrics("tests/inputs/dlio_config.yaml", "unet3d")
if preset_run and from_file:
    check(from_file == preset_run, f"the DLIO file gives the preset's results: {from_file} vs {preset_run}")
m = phase_metrics("tests/inputs/dlio_config.yaml", "unet3d", "phases.unet3d.epochs=1")
if m:
    check(m["steps"] == 1120 // (7 * 8), f"epochs beside config overrides the file's 2: {m['steps']} steps")
# MLPerf's resnet50 file: 64 files x 1,251 samples, batch 400, 8 threads; prefetch_size 16 over
# 8 threads -> 2 batches per thread.
m = phase_metrics("tests/inputs/dlio_config.yaml", "unet3d", "phases.unet3d.config=dlio/resnet50_h100.yaml")
if m:
    check(m["steps"] == 64 * 1251 // (400 * 8) and m["au_threshold"] == 0.9,
          f"resnet50 from its DLIO file: {m['steps']} steps, threshold {m['au_threshold']}")
    check_close(m["bytes_read"], m["steps"] * 400 * 8 * 114660.07, 1e-9, "resnet50 reads its records")

# MLPerf Storage's question through llsim plan: the most accelerators that keep AU >= 0.9. On
# 16 GB/s of disks, AU ~ 0.323 s x 16 GB/s / (146.6 MB x 7 x n) >= 0.9 gives n <= 5.6: 5 (the
# first batch's wait only lowers AU). A list falling all along, with --maximize, is not warned
# about.
out = scratch_dir()
_, stdout, err = run("plan", SCENARIO, "--axis", "phases.unet3d.accelerators=8,7,6,5,4,3,2,1", "--target",
                     "unet3d.au>=0.9", "--objective", "unet3d.accelerators", "--maximize", "--out", out, "--quiet")
check("answer: phases.unet3d.accelerators=5" in stdout, f"plan: the most accelerators at AU >= 0.9 is 5: {stdout}")
check("warning" not in err, f"no warning for a falling list with --maximize: {err}")
_, _, err = run("plan", SCENARIO, "--axis", "phases.unet3d.accelerators=1,2,3", "--target", "unet3d.au>=0.9",
                "--objective", "unet3d.accelerators", "--maximize", "--out", scratch_dir(), "--quiet")
check("lists 1 before 2" in err, f"a rising list with --maximize is warned about: {err}")
answer = json.load(open(os.path.join(out, "answer.json")))
check(answer["feasible"], f"the plan is feasible: {answer}")
m = phase_metrics(SCENARIO, "unet3d", "phases.unet3d.accelerators=6")
if m:
    check(m["au"] < 0.9, f"6 accelerators miss 90%: AU {m['au']:.3f}")

# tfrecord streams a file's records in one read; npz reads each record on its own: the same
# bytes, a hundredth of the requests or fewer (resnet50: 1,251 records per file).
RESNET = ["phases.unet3d.config=dlio/resnet50_h100.yaml"]
streamed = run_out("tests/inputs/dlio_config.yaml", *RESNET, "phases.unet3d.format=tfrecord")
each = run_out("tests/inputs/dlio_config.yaml", *RESNET, "phases.unet3d.format=npz")
if streamed and each:
    s, e = summary(streamed), summary(each)
    check_close(s["phases"]["unet3d"]["bytes_read"], e["phases"]["unet3d"]["bytes_read"], 1e-9,
                "tfrecord and npz read the same bytes")
    check(s["services"]["fs"]["operations"] * 100 < e["services"]["fs"]["operations"],
          f"tfrecord streams: {s['services']['fs']['operations']:g} requests against npz's "
          f"{e['services']['fs']['operations']:g}")

# A client host that fails ends the benchmark (exit 1, no output), as an MPI rank's death ends
# DLIO's.
out = os.path.join(scratch_dir(), "out")
_, _, err = run("run", SCENARIO, "--out", out, "--set",
                "faults=[{group: clients, impl: trace, file: dlio_client_down.csv}]", expect=1)
check("rank 4's host clients-1 went down at 0.5 s: DLIO's ranks do not survive a client failure" in err,
      f"a client failure ends the run: {err}")
check(not os.path.exists(out), "a failed run leaves no output")

run_fails(SCENARIO, "prefetch 9e+15 is above llsim's limit", "phases.unet3d.prefetch=9000000000000000")
run_fails(SCENARIO, "the dataset has 1120", "phases.unet3d.accelerators=200")
run_fails(SCENARIO, "unknown workload 'unet3d'", "phases.unet3d.workload=unet3d")
finish()
