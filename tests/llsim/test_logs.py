"""--log at debug level shows the runtimes' decisions on stderr: serving's routing, admission,
preemption, evictions and hand-offs; ingest's directory-cache hits, servers and subtree
rebalancing; preprocessing's corpus placement, stages and task inputs; the master-worker
runtime's scheduling, re-executions and checkpoints. Without --log none of it appears, and
logging changes no result: summary.json is the same with and without it (wall-clock figures
aside)."""
import json
import os

from harness import check, finish, run, scratch_dir

MC = "tests/inputs/serve_mooncake.yaml"
SHORT = "phases.chat.workload.duration=20s"


def without_wall(node):
    if isinstance(node, dict):
        return {k: without_wall(v) for k, v in node.items() if not k.startswith("wall")}
    if isinstance(node, list):
        return [without_wall(v) for v in node]
    return node


def summary_of(out):
    with open(os.path.join(out, "summary.json")) as f:
        return without_wall(json.load(f))


def logged(scenario, sets, logs):
    """Runs `scenario` with `sets`, once with the --log settings `logs` and once without;
    checks that the quiet run logs nothing and that both give the same summary. Returns the
    logged run's stderr."""
    args = [a for s in sets for a in ("--set", s)]
    quiet_out, loud_out = scratch_dir(), scratch_dir()
    _, _, quiet = run("run", scenario, "--quiet", "--out", quiet_out, *args)
    _, _, loud = run("run", scenario, "--quiet", "--out", loud_out, *args, *[f"--log={l}" for l in logs])
    what = f"{scenario} {' '.join(sets)}"
    check("/DEBUG]" not in quiet, f"{what}: nothing logged at debug without --log")
    check(summary_of(quiet_out) == summary_of(loud_out), f"{what}: --log changes summary.json")
    return loud


def shows(err, what, *needles):
    for needle in needles:
        check(needle in err, f"{what}: no '{needle}' in the log")


# Mooncake with little HBM left for KV, a 2 GB pool and a 2 GB SSD tier: routing by TTFT
# estimate, queueing and admission on both sides, the hand-off, and evictions at every tier.
err = logged(MC, [SHORT, "phases.chat.batching.gpu_memory_utilization=0.25", "services.kvpool.capacity=2GB",
                  "phases.chat.system.ssd={storage: flash, capacity: 2GB}"],
             ["llsim.serve:debug", "llsim.svc.memory_pool:debug"])
shows(err, "mooncake", "[llsim_serve_system_mooncake/DEBUG] request 0 -> prefill instance",
      "smallest TTFT estimate", "queued at instance", "[llsim_serve_batcher/DEBUG] admits request",
      "free of", "prompt KV", "-> decode instance", "admits request 0 to decode", "prefix blocks loaded from the pool",
      "[llsim_serve_prefix_cache/DEBUG] prefix cache", "evicts block", "SSD tier full: deletes block",
      "[llsim_svc_memory_pool/DEBUG] server 0 full: evicts block", "rejected: its prompt needs")
check("TTFT estimate" in err and "at prefill instance" not in err, "mooncake: per-candidate estimates only at trace")
# Early rejection: the estimates against the SLO.
err = logged(MC, [SHORT, "phases.chat.system.early_rejection=true", "phases.chat.slo.ttft=1s"], ["llsim.serve:debug"])
shows(err, "early rejection", "rejected early: TTFT estimate")

# vLLM on four colocated instances with little KV: least-loaded routing with the loads seen,
# admission, preemption by recompute and rejection of a request that can never fit.
err = logged(MC, [SHORT, "phases.chat.system={impl: vllm, instances: colocated, prefix_caching: true}",
                  "phases.chat.batching.gpu_memory_utilization=0.25"], ["llsim.serve:debug"])
shows(err, "vllm", "request 0 -> instance 0 (least_loaded; loads 0 0 0 0)", "request 1 -> instance 1 (least_loaded; loads 1 0 0 0)",
      "admits request", "preempts request", "(the latest arrival) to recompute", "rejected: ", "KV blocks, an instance holds",
      "evicts block")
err = logged(MC, [SHORT, "phases.chat.system={impl: vllm, instances: colocated, router: round_robin}"],
             ["llsim.serve.system.vllm:debug"])
shows(err, "round robin", "request 1 -> instance 1 (round_robin;")
check("llsim_serve_batcher" not in err, "a file's category alone logs that file alone")

# One instance without chunked prefill: whole prompts admitted in iterations of their own.
err = logged("tests/inputs/serve_single.yaml", ["phases.chat.workload.requests=3"], ["llsim.serve:debug"])
shows(err, "single", "request 0 -> instance 0", "admits request 0 whole: 4000 prompt tokens", "KV blocks 250 needed")

# Ingest: each operation's cache hits and servers; the subtree model rebalancing (as in
# test_ingest.py, 12 rank directories on 4 servers).
SUB = ["services.mds.model={impl: subtree, depth: 2, rebalance: {threshold: 1.2, window: 200}}",
       "platform.groups.mds.count=4", "platform.groups.clients.count=3"]
err = logged("tests/inputs/ingest_mdtest.yaml", SUB, ["llsim.ingest:debug"])
shows(err, "ingest", "[llsim_ingest_ingest_run/DEBUG] rank 0 mkdir /mdtest-easy: 0 of 0 directories cached",
      "1 of 1 directories cached", "create /mdtest-easy/r0/", "RPCs to servers [",
      "[llsim_metadata_model_subtree/DEBUG] rebalancing after 200 operations: the busiest server",
      "moves subtree /mdtest-easy/r")
err = logged("tests/inputs/ingest_mdtest.yaml", ["phases.md.cache.entries=0"], ["llsim.ingest:debug"])
shows(err, "ingest without a cache", "0 of 2 directories cached, lookups to servers [")

# Master-worker: assignments with their estimates, scheduling events; then a failure with local
# checkpoints (tests/inputs/tasks_failure_trace.yaml: worker 0 down from 50 s to 60 s).
err = logged("tests/inputs/tasks_fcfs_identical.yaml", [], ["llsim.mw:debug"])
shows(err, "tasks", "[llsim_mw_master_worker/DEBUG] task 0 -> workers-0: ETC 10 s, expected done at 10 s (input from the master)",
      "scheduling event: 8 of 50 unassigned tasks assigned", "[llsim_mw_master_worker/DEBUG] task 0, attempt 1: starts at 0")
err = logged("tests/inputs/tasks_failure_trace.yaml",
             ["phases.bag.checkpoint={impl: local, interval: 20s, size: 1MB, storage: scratch}"], ["llsim.mw:debug"])
shows(err, "tasks with a failure", "task 0: checkpoint at 4e+10 of 1e+11 flops (1e+06 B) on its own disks",
      "goes down until 60 s, task 0 lost; the master notices at 55 s", "notices that workers-0 failed: task 0",
      "workers-0 is back", "task 0, attempt 2: starts at 4e+10 of 1e+11 flops (re-executed from its checkpoint)")
err = logged("tests/inputs/tasks_failure_trace.yaml", [], ["llsim.mw.master_worker:debug"])
shows(err, "tasks without checkpoints", "task 0, attempt 2: starts at 0 of 1e+11 flops (re-executed from scratch)")

# Preprocess: the corpus placement, the engine, each stage and where each task's input lies; with
# the runtime's logs, where each task runs and which copy it reads: its own with data_centric and
# the locality scheduler, a remote one with compute_centric.
PP = "tests/inputs/preprocess_dedup.yaml"
err = logged(PP, [], ["llsim.preprocess:debug", "llsim.mw:debug"])
shows(err, "preprocess", "[llsim_preprocess_preprocess_run/DEBUG] corpus: 64 files of 6.25e+06 B",
      "2 copies in all", "read and minhash fused", "stage read+minhash: 64 tasks", "stage lsh_shuffle: 8 tasks",
      "task read+minhash-1: input 6250000 B on cluster-1 cluster-2",
      "(the scheduler may place it anywhere)", "stage filter_write done in",
      "task read+minhash-1 -> cluster-1: ETC", "(holds its input)",
      "task read+minhash-1 reads 6.25e+06 B of input from cluster-1 (its own copy of 2)")
err = logged(PP, ["phases.dedup.engine={impl: compute_centric}"], ["llsim.preprocess:debug", "llsim.mw:debug"])
shows(err, "preprocess, compute_centric", "the corpus read over the network", "(read from a remote copy)",
      "task read-1 reads 6.25e+06 B of input from cluster-2 (a remote copy of 2)")

finish()
