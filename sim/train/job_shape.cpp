#include "sim/train/job_shape.hpp"

namespace llsim {

const ParamTable& imbalance_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("embedding_stage", Dimension::Number, "pipeline stage 0's share relative to the others")
          .defaults("1")
          .positive(),
  };
  return t;
}

ParamSpec ranks_per_node_param()
{
  return ParamSpec::integer("ranks_per_node", "ranks (GPUs) on each node: tensor parallelism first stays inside a "
                                              "node; 0: the group's GPU count (1 for a group without GPUs)")
      .defaults("0")
      .at_least(0);
}

JobShape read_job_shape(const Params& phase, const GroupSpec& nodes)
{
  JobShape job;
  job.ranks_per_node = phase.integer("ranks_per_node");
  if (job.ranks_per_node == 0)
    job.ranks_per_node = nodes.gpu ? nodes.gpu->count : 1;
  if (nodes.gpu && job.ranks_per_node > nodes.gpu->count)
    phase.fail("ranks_per_node", std::to_string(job.ranks_per_node) + " ranks per node, but group '" + nodes.name +
                                     "' has " + std::to_string(nodes.gpu->count) + " GPUs per node (one rank each)");
  const Params model           = phase.section("model", model_params());
  job.model.params             = model.quantity("params");
  job.model.B_per_param        = model.quantity("state_bytes_per_param");
  job.model.weight_B_per_param = model.quantity("weight_bytes_per_param");
  job.model.embedding_stage    = phase.section("shard_imbalance", imbalance_params()).quantity("embedding_stage");
  if (job.model.weight_B_per_param > job.model.B_per_param)
    model.fail("weight_bytes_per_param", "the weights cannot take more than state_bytes_per_param");
  parse_sharding(model.text("sharding"), &job.model.sharding);  // one of its words: Params checked it
  const Params par    = phase.section("parallelism", parallelism_params());
  job.parallelism     = {par.integer("data"), par.integer("pipeline"), par.integer("tensor"), par.integer("expert")};
  const int64_t ranks = nodes.count * job.ranks_per_node;
  if (job.parallelism.ranks() != ranks)
    par.ref().fail("data x pipeline x tensor x expert = " + std::to_string(job.parallelism.ranks()) + ", but group '" +
                   nodes.name + "' has " + std::to_string(nodes.count) + " nodes x " +
                   std::to_string(job.ranks_per_node) + " ranks = " + std::to_string(ranks) + " ranks");
  return job;
}

}  // namespace llsim
