"""Training on GPU hosts through llsim (tests/inputs/train_gpu_hosts.yaml): a host holds its GPUs'
ranks (ranks_per_node, by default the group's GPU count), and the state each rank keeps follows
the sharding: the async snapshot copies a host's own ranks' state (closed form: bytes / snapshot
bandwidth), while a checkpoint always writes one copy of the model's state."""
from harness import check, check_close, finish, run_fails, run_out, summary

SCENARIO = "tests/inputs/train_gpu_hosts.yaml"
STATE = 10e9 * 14                 # 140 GB
STAGE_SHARD = STATE / 2 / 8       # a rank's model-parallel shard: 1/2 stage, 1/8 tensor
WEIGHTS = 2 / 14                  # share of the weights in the state
SNAPSHOT_BPS = 10e9


def train(*sets):
    return summary(run_out(SCENARIO, *sets))["phases"]["train"]


def snapshot_s(rank_state):
    return 8 * rank_state / SNAPSHOT_BPS  # a host's 8 ranks


none = train()
check_close(none["checkpoint_blocking_s"], snapshot_s(STAGE_SHARD), 1e-9,
            "sharding none: a host copies 8 whole shards (a pipeline stage's tensor slices)")
check(none["checkpoints"] == 1, "one checkpoint (after iteration 2 of 4)")
check_close(none["checkpoint_bytes"], STATE, 1e-9, "a checkpoint holds one copy of the state")
for name in ("zero1", "zero2"):
    z = train(f"phases.0.model.sharding={name}")
    check_close(z["checkpoint_blocking_s"], snapshot_s(STAGE_SHARD * (WEIGHTS + (1 - WEIGHTS) / 4)), 1e-9,
                f"{name}: the weights whole, a quarter of the optimizer state")
    check_close(z["checkpoint_bytes"], none["checkpoint_bytes"], 1e-12, f"{name}: the same bytes written")
for name in ("zero3", "fsdp"):
    z = train(f"phases.0.model.sharding={name}")
    check_close(z["checkpoint_blocking_s"], snapshot_s(STAGE_SHARD / 4), 1e-9, f"{name}: a quarter of everything")
light = train("phases.0.model.sharding=zero1", "phases.0.model.weight_bytes_per_param=4")
check_close(light["checkpoint_blocking_s"], snapshot_s(STAGE_SHARD * (4 / 14 + (10 / 14) / 4)), 1e-9,
            "weight_bytes_per_param: fp32 weights held whole under ZeRO-1")

# ranks_per_node: explicit 8 is the default from the GPU count; 4 ranks per host on 16 hosts...
# needs a parallelism of 32 on 8 hosts.
check_close(train("phases.0.ranks_per_node=8")["checkpoint_blocking_s"], none["checkpoint_blocking_s"], 1e-12,
            "ranks_per_node 8 = the group's GPUs")
four = train("phases.0.ranks_per_node=4", "phases.0.parallelism={data: 2, pipeline: 2, tensor: 8}")
check_close(four["checkpoint_blocking_s"], 4 * STATE / 2 / 8 / SNAPSHOT_BPS, 1e-9,
            "4 ranks per host: half a stage's tensor slices each")
run_fails(SCENARIO, "has 8 nodes x 8 ranks = 64 ranks", "phases.0.parallelism={data: 2, pipeline: 2, tensor: 8}")
run_fails(SCENARIO, "unknown sharding 'zero4': did you mean 'zero1'? (expected none, zero1, zero2, zero3 or fsdp)",
          "phases.0.model.sharding=zero4")
run_fails(SCENARIO, "cannot take more than state_bytes_per_param", "phases.0.model.weight_bytes_per_param=16")
run_fails(SCENARIO, "16 ranks per node, but group 'gpu' has 8 GPUs per node", "phases.0.ranks_per_node=16",
          "phases.0.parallelism={data: 8, pipeline: 2, tensor: 8}")

finish()
