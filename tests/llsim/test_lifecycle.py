"""The whole lifecycle on one platform (scenarios/lifecycle.yaml and
scenarios/paper/lifecycle_contention.yaml), and the phase switch `enabled` that compares them."""
from harness import check, check_close, finish, run, scratch_dir, summary

LIFECYCLE = "scenarios/lifecycle.yaml"
CONTENTION = "scenarios/paper/lifecycle_contention.yaml"
OWN_FS = "phases.train.io={forwarding: fwd_ckpt, storage: ckpt, process_bandwidth: 2GBps, request: 256MiB}"


def phases_of(scenario, *sets):
    out = scratch_dir()
    args = ["run", scenario, "--quiet", "--out", out]
    for s in sets:
        args += ["--set", s]
    code, _, _ = run(*args)
    return summary(out)["phases"] if code == 0 else {}


shared = phases_of(LIFECYCLE)
check(sorted(p["kind"] for p in shared.values()) == ["ingest", "preprocess", "serve", "serve", "train"],
      f"all four phase kinds run: {sorted(shared)}")
crawl, dedup, train, serve = (shared[n] for n in ("crawl", "dedup", "train", "serve"))
check(crawl["end_s"] <= dedup["start_s"] and dedup["end_s"] <= train["start_s"],
      "ingest, then dedup, then train")
check(serve["start_s"] == 0 and serve["end_s"] >= train["end_s"], "serving runs the whole time")
check(train["checkpoints"] == 5 and serve["completed"] > 1000, "checkpoints are written and requests served")
# dedup -> train through storage: each of the 30 iterations reads its 16 MiB batch from what
# dedup wrote on pfs (dedup/output).
check(train["data_bytes"] == 30 * 4194304 * 4, f"train reads its batches from dedup's output: {train['data_bytes']}")
# train -> serve through storage: v2's two instances load its 40 GB of weights from the newest
# checkpoint, after training, at no more than the OSTs' 32 x 600 MB/s of reads.
v2 = shared["serve-v2"]
check(v2["start_s"] >= train["end_s"] and v2["weight_loads"] == 2 and v2["weight_bytes_loaded"] == 80e9,
      f"serve-v2 loads the trained model from pfs after training: {v2['weight_loads']} loads")
check(v2["time_to_serve_s"] >= 80e9 / (32 * 600e6) and v2["completed"] == v2["requests"],
      f"the loads are bound by the OSTs: {v2['time_to_serve_s']} s")

alone = phases_of(LIFECYCLE, "phases.serve.enabled=false")
check("serve" not in alone and sorted(alone) == ["crawl", "dedup", "serve-v2", "train"],
      "a disabled phase does not run")
# Without serving, a checkpoint is bound by the OSTs: 280 GB over 8 servers x 4 OSTs x 500 MB/s.
check_close(alone["train"]["checkpoint_write_s"], 280e9 / (8 * 4 * 500e6), 0.02,
            "checkpoint write time without serving is the OSTs' closed form")
check(train["checkpoint_write_s"] > 1.01 * alone["train"]["checkpoint_write_s"],
      f"checkpoints are slower while serving writes KV blocks to the same file system: "
      f"{train['checkpoint_write_s']} vs {alone['train']['checkpoint_write_s']}")
check(crawl["makespan_s"] > 10 * alone["crawl"]["makespan_s"],
      f"the crawl's small writes queue behind serving's KV blocks: {crawl['makespan_s']} vs "
      f"{alone['crawl']['makespan_s']}")

own = phases_of(CONTENTION, OWN_FS)
check_close(own["train"]["checkpoint_write_s"], alone["train"]["checkpoint_write_s"], 0.001,
            "with its own file system, checkpoints take as long as without serving")
check(own["serve"]["slo_attainment"] >= 0.9, "serving still meets its SLO")
check_close(phases_of(CONTENTION)["train"]["checkpoint_write_s"], train["checkpoint_write_s"], 1e-9,
            "the contention scenario's shared case is the lifecycle scenario")

# The switch is checked like any parameter, and a disabled phase is still loaded and checked.
_, _, err = run("run", LIFECYCLE, "--set", "phases.crawl.enabled=false", "--out", scratch_dir(), expect=2)
check("phase 'crawl' has 'enabled: false'" in err and "'dedup' would wait" in err, err)
_, _, err = run("run", LIFECYCLE, "--set", "phases.serve.enabled=false", "--set", "phases.serve.slo.ttft=-1s",
                "--out", scratch_dir(), expect=2)
check("phases[3].slo.ttft" in err, f"a disabled phase is still checked: {err}")
_, _, err = run("run", LIFECYCLE, "--set", "phases.serve.enabled=maybe", "--out", scratch_dir(), expect=2)
check("enabled" in err, f"enabled takes true or false: {err}")
_, _, err = run("run", "tests/inputs/preprocess_dedup.yaml", "--set", "phases.dedup.enabled=false",
                "--out", scratch_dir(), expect=2)
check("at least one must run" in err, err)
finish()
