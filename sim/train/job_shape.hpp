// The train phase's keys for the shape of the job: the ranks on each node, the model state and
// its sharding, and the parallelism (parallelism.hpp says who holds what).
//   ranks_per_node: 0        ranks (GPUs) per node; 0: the group's GPU count (1 without GPUs)
//   model: {params, state_bytes_per_param, weight_bytes_per_param, sharding}
//   parallelism: {data, pipeline, tensor, expert}   product = nodes x ranks_per_node
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/train/parallelism.hpp"

namespace llsim {

struct JobShape {
  int64_t ranks_per_node = 1;
  ModelState model;
  Parallelism parallelism;
};

ParamSpec ranks_per_node_param();
const ParamTable& imbalance_params();  // shard_imbalance: {embedding_stage}
// Reads them from a train phase running on `nodes`; located errors for a parallelism whose
// product is not the job's ranks and for an unknown sharding.
JobShape read_job_shape(const Params& phase, const GroupSpec& nodes);

}  // namespace llsim
