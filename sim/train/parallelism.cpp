#include "sim/train/parallelism.hpp"

#include <algorithm>
#include <utility>

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

double shard_B(int64_t stage, const ModelState& m, const Parallelism& p)
{
  const double shares      = m.embedding_stage + static_cast<double>(p.pipeline - 1);
  const double stage_share = (stage == 0 ? m.embedding_stage : 1.0) / shares;
  return m.total_B() * stage_share / static_cast<double>(p.tensor * p.expert);
}

namespace {

// The part of a shard the data-parallel replicas share (weights under ZeRO-1/2, all of it
// without sharding, nothing under ZeRO-3 and FSDP).
double replicated_share(const ModelState& m)
{
  switch (m.sharding) {
  case Sharding::None:
    return 1;
  case Sharding::Zero1:
  case Sharding::Zero2:
    return m.weight_B_per_param / m.B_per_param;
  case Sharding::Zero3:
  case Sharding::Fsdp:
    return 0;
  }
  return 1;
}

}  // namespace

double rank_state_B(int64_t stage, const ModelState& m, const Parallelism& p)
{
  const double shard  = shard_B(stage, m, p);
  const double shared = replicated_share(m);
  return shard * shared + shard * (1 - shared) / static_cast<double>(p.data);
}

double rank_checkpoint_B(const RankPosition& pos, const ModelState& m, const Parallelism& p, bool even_data)
{
  const double shard  = shard_B(pos.stage, m, p);
  const double shared = shard * replicated_share(m);
  const double own    = (shard - shared) / static_cast<double>(p.data);
  if (even_data)
    return own + shared / static_cast<double>(p.data);
  return own + (pos.data_rank == 0 ? shared : 0);
}

double node_state_B(const ModelState& m, const Parallelism& p, int64_t ranks_per_node)
{
  double most = 0;
  for (int64_t first = 0; first < p.ranks(); first += ranks_per_node) {
    double node = 0;
    for (int64_t r = first; r < first + ranks_per_node && r < p.ranks(); ++r)
      node += rank_state_B(position_of(r, p).stage, m, p);
    most = std::max(most, node);
  }
  return most;
}

bool parse_sharding(const std::string& name, Sharding* sharding)
{
  static const std::pair<const char*, Sharding> kNames[] = {{"none", Sharding::None},
                                                            {"zero1", Sharding::Zero1},
                                                            {"zero2", Sharding::Zero2},
                                                            {"zero3", Sharding::Zero3},
                                                            {"fsdp", Sharding::Fsdp}};
  for (const auto& [n, s] : kNames)
    if (name == n) {
      *sharding = s;
      return true;
    }
  return false;
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
      ParamSpec::quantity("weight_bytes_per_param", Dimension::Number,
                          "of those, the weights' (bf16: 2); the rest is optimizer state, which ZeRO shards")
          .defaults("2")
          .positive(),
      ParamSpec::one_of("sharding", {"none", "zero1", "zero2", "zero3", "fsdp"},
                        "what each data-parallel rank holds of its shard: none (all), zero1 or zero2 "
                        "(the weights and 1/data of the optimizer state), zero3 or fsdp (1/data of all)")
          .defaults("none"),
  };
  return t;
}

}  // namespace llsim
