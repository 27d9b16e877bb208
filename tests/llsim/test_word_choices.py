"""Keys whose value is one of a few words (ParamSpec::one_of): each refuses any other word with
one message, `KEY: unknown KEY 'WORD' (expected a, b or c)`, located at the value, exit 2 and no
output; and `llsim models` lists the words. A word close to one of them gets `did you mean`, and
the models of a family, named by `impl:` or by a key's value, a GPU preset and a distribution are
refused in the same words (unknown_word, sim/core/text.hpp)."""
from harness import check, finish, run, run_fails

# (scenario, the --set that puts the word in place, the key, its words)
CASES = [
    ("scenarios/demo.yaml", "platform.network={model: %s}", "model", "cm02 or lv08"),
    ("tests/inputs/serve_single.yaml", "phases.chat.slo.tbt_statistic=%s", "tbt_statistic", "tail_mean, mean or max"),
    ("tests/inputs/serve_single.yaml", "phases.chat.batching.preemption=%s", "preemption", "recompute or swap"),
    ("tests/inputs/ingest_mdtest.yaml", "services.mds.service_time=%s", "service_time", "exponential or constant"),
    ("tests/inputs/ingest_mdtest.yaml", "phases.md.workload.pattern=%s", "pattern", "easy or hard"),
    ("tests/inputs/train_symmetric.yaml", "services.fwd.mapping=%s", "mapping", "static or balanced"),
    ("tests/inputs/train_symmetric.yaml", "phases.train.model.sharding=%s", "sharding",
     "none, zero1, zero2, zero3 or fsdp"),
    ("tests/inputs/train_symmetric.yaml", "phases.train.checkpoint.io_replay=%s", "io_replay", "auto, always or once"),
    ("tests/inputs/train_symmetric.yaml", "phases.train.checkpoint.mode={impl: multilevel, level: %s}", "level",
     "single, partner or xor"),
    ("tests/inputs/train_symmetric.yaml", "phases.train.checkpoint.mode={impl: multilevel, memory: %s}", "memory",
     "none or partner"),
    ("tests/inputs/autoscale.yaml", "phases.chat.autoscale.metric=%s", "metric",
     "queue_length, running, sequences, kv_use, gpu_utilization or gpu_busy_share"),
    ("tests/inputs/serve_single.yaml", "phases.chat.iteration={impl: operators, experts_reached: %s}",
     "experts_reached", "mean or drawn"),
    ("scenarios/paper/infinitehbd.yaml", "faults.0.map=%s", "map", "order, random or file"),
    ("tests/inputs/serve_single.yaml", "platform.groups.gpu.gpu.interconnect=%s", "interconnect",
     "nvlink, infinity_fabric or pcie"),
    ("tests/inputs/serve_mooncake.yaml", "phases.chat.workload.format=%s", "format",
     "mooncake, azure, burstgpt, requests or vllm_benchmark"),
]
for scenario, setting, key, words in CASES:
    run_fails(scenario, f"{key}: unknown {key} 'nonsense' (expected {words})", setting % "nonsense")

run_fails("tests/inputs/serve_single.yaml",
          "preemption: unknown preemption 'swop': did you mean 'swap'? (expected recompute or swap)",
          "phases.chat.batching.preemption=swop")
run_fails("tests/inputs/serve_single.yaml", "router: unknown router 'least_loded': did you mean 'least_loaded'? "
          "(expected conductor, kv_aware, least_loaded or round_robin)", "phases.chat.system.router=least_loded")
_, out, _ = run("models")
run_fails("tests/inputs/tasks_fcfs_identical.yaml",
          "impl: unknown task_scheduler 'minmim': did you mean 'minmin'? (expected ", "phases.bag.scheduler={impl: minmim}")
run_fails("tests/inputs/serve_single.yaml", "preset: unknown GPU 'h100-sxm5': did you mean 'h100-sxm'? (expected ",
          "platform.groups.gpu.gpu={preset: h100-sxm5}")
run_fails("tests/inputs/tasks_fcfs_identical.yaml", "dist: unknown distribution 'expo' (expected ",
          "phases.bag.tasks.flops={dist: expo, mean: 1}")

check("one of: single, partner, xor" in out and "one of: auto, always, once" in out,
      "llsim models lists the words of a one_of key")
finish()
