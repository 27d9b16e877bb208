"""The preprocess phase through llsim: where the corpus is read (local or remote), the shuffle's
bytes, a closed form for one stage on one worker, the engines' differences, documents removed by
the LSH formula, failures and re-execution, ingest output as the corpus, and that every declared
parameter changes a result."""
import csv
import os

from harness import check, check_close, finish, phase_metrics, run, scratch_dir

PP = "tests/inputs/preprocess_dedup.yaml"
CORPUS_B, DOCS = 400e6, 100e3


def pp(*sets):
    return phase_metrics(PP, "dedup", *sets)


# Where the corpus is read from. Data-centric with the locality scheduler on the nodes that hold
# the corpus: nothing remote; compute-centric pulls every byte over the network (from the NAS, or
# from another node's replica).
data = pp()
check(data["bytes_read_remote"] == 0, f"data-centric, local corpus: {data['bytes_read_remote']} B remote")
check(data["bytes_read_local"] == 2 * CORPUS_B, "data-centric reads its partitions twice (minhash pass, filter pass)")
nas = pp("phases.dedup.engine.impl=compute_centric", "phases.dedup.storage=nas")
check(nas["bytes_read_remote"] == CORPUS_B, f"compute-centric from the NAS: {nas['bytes_read_remote']} B remote")
rep = pp("phases.dedup.engine.impl=compute_centric", "phases.dedup.placement={impl: replicated, replicas: 3}")
check(rep["bytes_read_remote"] == CORPUS_B and rep["bytes_read_local"] == 0,
      f"compute-centric with replicas: {rep['bytes_read_remote']} B remote, {rep['bytes_read_local']} B local")

# The shuffle: documents x bands x (key + id), exactly.
check(data["shuffle_bytes"] == DOCS * 14 * 16, f"shuffle bytes {data['shuffle_bytes']}")
s = pp("phases.dedup.minhash={bands: 20, rows: 5, key_bytes: 4B, id_bytes: 12B}")
check(s["shuffle_bytes"] == DOCS * 20 * 16, f"shuffle bytes with b 20, 4 + 12 B: {s['shuffle_bytes']}")

# One stage on one worker: bytes / disk bandwidth (2 disks x 500 MB/s, no network) + compute
# (10 ns a byte on 16 cores).
one = pp("platform.groups.cluster.count=1", "phases.dedup.pipeline=[read]", "phases.dedup.stages.read.output_ratio=0",
         "phases.dedup.placement={impl: striped}")
check_close(one["makespan_s"], CORPUS_B / 1e9 + CORPUS_B * 10e-9 / 16, 0.02, "one stage, one worker: closed form")

# Documents removed: fraction x the mean of 1 - (1 - s^r)^b over s uniform in [0.5, 1].
n = 200000
mean_p = sum(1 - (1 - (0.5 + 0.5 * (i + 0.5) / n) ** 8) ** 14 for i in range(n)) / n
check_close(data["documents_removed_expected"], DOCS * 0.1 * mean_p, 0.01, "documents removed, expected")
# The count itself is whole, drawn with the seed: Binomial(10,000 near-duplicates, mean_p), whose
# standard deviation is about 48.
removed = data["documents_removed"]
check(removed == int(removed) and abs(removed - DOCS * 0.1 * mean_p) < 4 * 48, f"documents removed: {removed}")
check(pp("seed=2")["documents_removed"] != removed, "documents removed: another seed, another draw")
check(pp()["documents_removed"] == removed, "documents removed: the same seed, the same count")
check(pp("phases.dedup.duplicates.fraction=0.2")["documents_removed"] > 1.9 * data["documents_removed"], "fraction")
check(pp("phases.dedup.duplicates.similarity=0.95")["documents_removed"] > data["documents_removed"], "similarity")
check(pp("phases.dedup.minhash.rows=4")["documents_removed"] > data["documents_removed"], "rows")

# Engines: data-centric is faster and moves fewer bytes over the network on the same platform.
comp = pp("phases.dedup.engine.impl=compute_centric", "phases.dedup.placement={impl: replicated, replicas: 3}",
          "phases.dedup.scheduler.impl=fcfs")
dat3 = pp("phases.dedup.placement={impl: replicated, replicas: 3}")
check(dat3["makespan_s"] < comp["makespan_s"], f"data-centric {dat3['makespan_s']:.3f} s vs {comp['makespan_s']:.3f} s")
check(dat3["network_bytes"] < comp["network_bytes"], "data-centric moves fewer network bytes")
base_c = pp("phases.dedup.engine.impl=compute_centric")
for key, value in [("runtime_overhead", 6), ("serialization", "20ns")]:
    check(pp("phases.dedup.engine.impl=compute_centric", f"phases.dedup.engine.{key}={value}")["makespan_s"] >
          base_c["makespan_s"], f"compute_centric {key}")
check(pp("phases.dedup.engine.impl=compute_centric", "phases.dedup.engine.memory_factor=4")["peak_memory_bytes"] >
      base_c["peak_memory_bytes"], "compute_centric memory_factor")
check(pp("phases.dedup.engine.memory_factor=2")["peak_memory_bytes"] > data["peak_memory_bytes"], "data_centric memory_factor")

# Memory beyond the executor's spills to the worker's disks, at their cost.
spill = pp("phases.dedup.executor_memory=10MB")
check(spill["spill_bytes"] > 0 and spill["makespan_s"] > data["makespan_s"], f"spill {spill['spill_bytes']} B")
# Fused read and minhash hold a document's parsed text and its hashing state at once.
check(data["spill_bytes"] == 0 and data["peak_memory_bytes"] == 1562.5 * (16e3 + 4e3) * 0.5, f"peak {data['peak_memory_bytes']}")

# Scheduler: FCFS ignores where the data is. (Nodes of different speeds, so that the order in
# which they free up does not follow the striping by chance.)
MIXED = "platform.groups.cluster.speed={dist: uniform, min: 5GFlops, max: 15GFlops}"
fcfs = pp(MIXED, "phases.dedup.scheduler.impl=fcfs")
check(fcfs["bytes_read_remote"] > 0, "fcfs reads remote partitions")
# Locality lets a fast node that ran out of its own partitions take another's (the oldest).
check(0 < pp(MIXED)["bytes_read_remote"] < fcfs["bytes_read_remote"], "locality reads fewer remote partitions")
rep_fcfs = pp(MIXED, "phases.dedup.scheduler.impl=fcfs", "phases.dedup.placement={impl: replicated, replicas: 3}")
check(rep_fcfs["bytes_read_local"] > fcfs["bytes_read_local"], "more replicas, more local reads by chance")
check(pp(MIXED, "phases.dedup.scheduler.impl=fcfs", "phases.dedup.placement={impl: replicated, replicas: 2}")
      ["bytes_read_local"] != rep_fcfs["bytes_read_local"], "replicas")

# The survivors are written like the corpus, two copies: the second crosses the network.
survivors = CORPUS_B * (1 - data["documents_removed_expected"] / DOCS)
one_copy = pp("phases.dedup.pipeline=[read, minhash, lsh_shuffle, cluster]")
check_close(data["network_bytes"] - one_copy["network_bytes"], survivors, 0.01, "filter_write's second copy")

# Tasks: 64 partitions x 2 passes + reducers + 1; pipeline prefixes; reducers; fan_in.
check(data["tasks"] == 64 + 8 + 1 + 64, f"tasks {data['tasks']}")
check(base_c["tasks"] == 64 * 2 + 8 + 1 + 64, f"compute-centric tasks {base_c['tasks']}")
check(pp("phases.dedup.reducers=32")["tasks"] == 64 + 32 + 1 + 64, "reducers")
check(pp("phases.dedup.pipeline=[read, minhash]")["tasks"] == 64, "pipeline")
# A stage that did not run reports nothing: no shuffle before lsh_shuffle, no documents removed
# before cluster (the shortened pipelines once reported the whole job's).
for pipeline, shuffled, found in [("[read]", False, False), ("[read, minhash]", False, False),
                                  ("[read, minhash, lsh_shuffle]", True, False),
                                  ("[read, minhash, lsh_shuffle, cluster]", True, True)]:
    short = pp(f"phases.dedup.pipeline={pipeline}")
    check(short["shuffle_bytes"] == (data["shuffle_bytes"] if shuffled else 0),
          f"pipeline {pipeline}: shuffle bytes {short['shuffle_bytes']}")
    check(short["documents_removed"] == (removed if found else 0) and
          short["documents_removed_expected"] == (data["documents_removed_expected"] if found else 0),
          f"pipeline {pipeline}: documents removed {short['documents_removed']}, "
          f"expected {short['documents_removed_expected']}")
# The shuffle is all-to-all: about 7/8 of its bytes cross the network on 8 nodes, whatever
# fan_in (the number of nodes each reducer reads from).
SHUFFLE_ONLY = ["phases.dedup.pipeline=[read, minhash, lsh_shuffle]", "phases.dedup.reducers=64"]
for fan_in in [1, 4, 16]:
    net = pp(*SHUFFLE_ONLY, f"phases.dedup.fan_in={fan_in}")["network_bytes"]
    check_close(net, DOCS * 14 * 16 * 7 / 8, 0.15, f"fan_in {fan_in}: the shuffle's network bytes")
check(pp("phases.dedup.fan_in=1")["makespan_s"] != data["makespan_s"], "fan_in")
for stage, key, value in [("read", "per_byte", "50ns"), ("minhash", "per_byte", "200ns"), ("lsh_shuffle", "per_item", "5us"),
                          ("cluster", "per_item", "1ms"), ("filter_write", "per_byte", "50ns"),
                          ("read", "per_item", "100us")]:
    check(pp(f"phases.dedup.stages.{stage}.{key}={value}")["makespan_s"] > data["makespan_s"], f"stages.{stage}.{key}")
check(pp("phases.dedup.stages.read.memory_per_item=1MB")["peak_memory_bytes"] > data["peak_memory_bytes"], "memory_per_item")
check(pp("phases.dedup.stages.minhash.memory_per_item=1MB")["peak_memory_bytes"] > data["peak_memory_bytes"],
      "minhash memory_per_item, fused")
check(pp("phases.dedup.engine.impl=compute_centric", "phases.dedup.stages.read.output_ratio=0.5")["makespan_s"] <
      base_c["makespan_s"], "read output_ratio")
check(pp("phases.dedup.stages.filter_write.output_ratio=0.1")["makespan_s"] < data["makespan_s"], "filter_write output_ratio")
check(pp("phases.dedup.corpus.files=16")["tasks"] == 16 + 8 + 1 + 16, "files")

# Failures: workers fail and come back; lost tasks run again and the job completes.
FAULTS = "faults=[{group: cluster, impl: exponential, mtbf: 5s, downtime: 100ms}]"
f = pp(FAULTS)
check(f["reexecutions"] > 0 and f["makespan_s"] > data["makespan_s"], f"failures: {f['reexecutions']} re-executions")
check(pp(FAULTS, "phases.dedup.failure_timeout=1s")["makespan_s"] < f["makespan_s"], "failure_timeout")

# CSVs.
out = scratch_dir()
run("run", PP, "--quiet", "--out", out)
with open(os.path.join(out, "dedup_stages.csv")) as fh:
    stages = list(csv.DictReader(fh))
check([r["stage"] for r in stages] == ["read+minhash", "lsh_shuffle", "cluster", "filter_write"], "stages CSV")
check(float(stages[1]["input_bytes"]) == data["shuffle_bytes"], "stages CSV: the shuffle's input")
with open(os.path.join(out, "dedup_nodes.csv")) as fh:
    nodes = list(csv.DictReader(fh))
out_fine = scratch_dir()
run("run", PP, "--quiet", "--out", out_fine, "--set", "phases.dedup.sample_period=20ms")
with open(os.path.join(out_fine, "dedup_nodes.csv")) as fh:
    check(len(list(csv.DictReader(fh))) > len(nodes), "a shorter sample_period gives more nodes CSV rows")
check(len(nodes) >= 4 * 2 * 8 and {r["state"] for r in nodes} <= {"idle", "busy", "down"}, "nodes CSV")

# The paper scenario (smaller corpus): data-centric is faster and moves fewer network bytes.
FD = "scenarios/paper/fuzzy_dedup.yaml"
SMALL = ["phases.dedup.corpus={documents: 5M, bytes: 20GB, files: 256}", "platform.groups.cluster.count=16"]
fd_data = phase_metrics(FD, "dedup", *SMALL)
fd_comp = phase_metrics(FD, "dedup", *SMALL, "phases.dedup.engine.impl=compute_centric", "phases.dedup.scheduler.impl=fcfs")
check(fd_data["makespan_s"] < fd_comp["makespan_s"] and fd_data["network_bytes"] < fd_comp["network_bytes"],
      f"fuzzy_dedup: data-centric {fd_data['makespan_s']:.2f} s, {fd_data['network_bytes']:.3g} B; "
      f"compute-centric {fd_comp['makespan_s']:.2f} s, {fd_comp['network_bytes']:.3g} B")
check(fd_data["bytes_read_remote"] == 0 and fd_comp["bytes_read_remote"] == 20e9, "fuzzy_dedup: corpus reads")

# The corpus an ingest phase wrote.
INGEST = "tests/inputs/ingest_then_dedup.yaml"
chained = phase_metrics(INGEST, "dedup")
check(chained["documents"] == 5000 and chained["bytes"] == 5000 * 20e3, f"from_phase: {chained['documents']} documents")

# Wrong corpora: from an ingest phase that wrote to another service, or deleted its files.
for sets, text in [(["phases.crawl.storage=nas"], "did the ingest phase write them to another service"),
                   (["phases.crawl.workload={impl: mdtest, pattern: hard, files_per_rank: 20, phases: [create, delete]}"],
                    "left no corpus")]:
    code, _, err = run("run", INGEST, "--quiet", "--out", scratch_dir(), *[a for s_ in sets for a in ("--set", s_)], expect=1)
    check(text in err, f"from_phase {sets}: {err.strip()[-300:]}")
_, _, err = run("run", PP, "--quiet", "--out", scratch_dir(), "--set", "phases.dedup.corpus.files=200000", expect=1)
check("at most one file and one reducer per document" in err, f"more files than documents: {err.strip()[-200:]}")
for sets, text in [("phases.dedup.duplicates.similarity=1.5", "a Jaccard similarity lies in [0, 1]"),
                   ("phases.dedup.duplicates.fraction=0.6", "fraction"),
                   ("phases.dedup.placement={impl: replicated, replicas: 9}", "9 copies of each file on 8 servers"),
                   ("phases.dedup.engine.impl=compute_centric", "")]:
    extra = ["--set", "phases.dedup.placement={impl: striped}"] if "compute_centric" in sets else []
    _, _, err = run("run", PP, "--quiet", "--out", scratch_dir(), "--set", sets, *extra, expect=2)
    check(text in err and "phases[0]." in err, f"{sets}: {err.strip()[-300:]}")

finish()
