#include "sim/train/parallelism.hpp"

namespace llsim {

RankPosition position_of(int64_t rank, const Parallelism& p)
{
  RankPosition pos{};
  pos.tensor_rank = rank % p.tensor;
  rank /= p.tensor;
  pos.expert_rank = rank % p.expert;
  rank /= p.expert;
  pos.data_rank = rank % p.data;
  pos.stage     = rank / p.data;
  return pos;
}

double shard_bytes(int64_t stage, const ModelState& m, const Parallelism& p)
{
  const double shares      = m.embedding_stage + static_cast<double>(p.pipeline - 1);
  const double stage_share = (stage == 0 ? m.embedding_stage : 1.0) / shares;
  return m.total_B() * stage_share / static_cast<double>(p.tensor * p.expert);
}

const ParamTable& parallelism_params()
{
  static const ParamTable t = {
      ParamSpec::integer("data", "data-parallel degree (replicas)").defaults("1").at_least(1),
      ParamSpec::integer("pipeline", "pipeline stages").defaults("1").at_least(1),
      ParamSpec::integer("tensor", "tensor-parallel degree").defaults("1").at_least(1),
      ParamSpec::integer("expert", "expert-parallel degree").defaults("1").at_least(1),
  };
  return t;
}

const ParamTable& model_params()
{
  static const ParamTable t = {
      ParamSpec::quantity("params", Dimension::Count, "parameters, e.g. 10T").positive(),
      ParamSpec::quantity("state_bytes_per_param", Dimension::Number,
                          "checkpointed bytes per parameter: weights plus optimizer state (mixed-precision "
                          "Adam: 2 fp16 weights + 4 fp32 master + 8 fp32 moments = 14)")
          .defaults("14")
          .positive(),
  };
  return t;
}

}  // namespace llsim
