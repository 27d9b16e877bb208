#include "sim/serve/engine/instance_set.hpp"

#include "sim/sg/wait_ledger.hpp"

#include "sim/sg/clock.hpp"

namespace llsim {

namespace {

const char* role_name(InstanceRole role)
{
  switch (role) {
  case InstanceRole::PrefillOnly:
    return "prefill";
  case InstanceRole::DecodeOnly:
    return "decode";
  case InstanceRole::Colocated:
    break;
  }
  return "colocated";
}

}  // namespace

ServeInstance& InstanceSet::start(ServeEnv& env, int index, HostId host, const BatcherConfig& config, InstanceRole role,
                                  int64_t ranks, const std::function<void(ServeInstance&)>& setup)
{
  auto inst = std::make_unique<ServeInstance>(index, host, config, role, env.tally);
  if (env.weights != nullptr)
    inst->set_weights(*env.weights, {index, host, ranks, env.weight_B}, env.tally.loads());
  if (env.swap_pool != nullptr)
    inst->set_swap_pool(*env.swap_pool);
  if (env.allocated_at_start >= 0 && index >= env.allocated_at_start)
    inst->start_released();
  inst->set_on_finished([&env](int64_t) { env.progress(); });
  inst->set_on_lost([&env](int64_t) { env.progress(); });
  env.tally.set_role(index, role_name(role));
  inst->set_faults(env.faults, {host});
  setup(*inst);
  inst->set_load_order(load_order_, static_cast<int>(instances_.size()));
  load_order_.add(inst->load());
  inst->start(env.platform, env.label);
  instances_.push_back(std::move(inst));
  ranks_.push_back(ranks);
  return *instances_.back();
}

namespace {

// An instance set as a router sees it, for one request.
class InstanceRoutes : public RouteView {
 public:
  InstanceRoutes(const InstanceSet& set, const FirstTokenEstimate* estimate)
      : set_(set)
      , estimate_(estimate)
      , serving_(set.any_serving())
  {}
  size_t size() const override { return set_.size(); }
  bool candidate(size_t k) const override { return InstanceSet::candidate(set_[k], serving_); }
  int64_t load(size_t k) const override { return set_[k].load(); }
  double first_token_s(size_t k) const override { return (*estimate_)(set_[k]); }
  int64_t fewest_sequences() const override
  {
    return set_.load_order().first([this](int k) { return candidate(static_cast<size_t>(k)); });
  }

 private:
  const InstanceSet& set_;
  const FirstTokenEstimate* estimate_;  // null for a choice that weighs none
  bool serving_;
};

ServeInstance* chosen(const InstanceSet& set, int64_t k)
{
  return k < 0 ? nullptr : &set[static_cast<size_t>(k)];
}

}  // namespace

ServeInstance* InstanceSet::least_loaded() const
{
  return chosen(*this, InstanceRoutes(*this, nullptr).fewest_sequences());
}

ServeInstance* route(Router& router, const InstanceSet& set, const FirstTokenEstimate& estimate)
{
  return chosen(set, router.route(InstanceRoutes(set, &estimate)));
}

bool InstanceSet::any_serving() const
{
  for (const auto& i : instances_)
    if (i->serving())
      return true;
  return false;
}

std::string InstanceSet::loads() const
{
  std::string text;
  for (const auto& i : instances_)
    text += (text.empty() ? "" : " ") + (!i->allocated() ? std::string("off")
                                         : i->up()       ? std::to_string(i->load()) + (i->serving() ? "" : " loading")
                                                         : std::string("down"));
  return text;
}

void InstanceSet::close_and_join()
{
  for (auto& i : instances_) {
    i->stop_holding();
    i->close();
  }
  for (auto& i : instances_)
    i->join();
}

double InstanceSet::held_seconds() const
{
  double s = 0;
  for (const auto& i : instances_)
    s += i->held_seconds();
  return s;
}

GpuUse InstanceSet::gpu_use() const
{
  GpuUse use;
  for (const auto& i : instances_)
    use += i->gpu_use();
  return use;
}

GroupUse InstanceSet::usage(const GroupSpec& group) const
{
  const double gpus = group.gpu ? static_cast<double>(group.gpu->count) : 1;
  GroupUse use{group.name, 0.0, 0, 0.0};
  for (size_t k = 0; k < instances_.size(); ++k) {
    const double share = static_cast<double>(ranks_[k]) / gpus;
    *use.held_host_s += share * instances_[k]->held_seconds();
    use.busy_host_s += share * instances_[k]->busy_seconds();
    *use.gpu_load_host_s += share * instances_[k]->gpu_use().load_s;
  }
  return use;
}

double InstanceSet::sum(double (Batcher::*figure)() const) const
{
  double n = 0;
  for (const auto& i : instances_)
    n += (i->batcher().*figure)();
  return n;
}

void reject_request(ServeEnv& env, int64_t id, const char* reason)
{
  count_turned_away(reason);
  env.tally.rejected(id, now());
  env.progress();
}

}  // namespace llsim
