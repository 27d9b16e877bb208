#include "sim/faults/host_faults.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"
#include "sim/core/work_limits.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace llsim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
using Later           = std::greater<std::pair<double, HostId>>;

}  // namespace

HostFaults::HostFaults(const PlatformSpec& platform, uint64_t seed)
    : platform_(platform)
    , seed_(seed)
    , model_of_(platform.host_count(), -1)
    , outages_(platform.host_count())
{}

const ParamTable& HostFaults::entry_params()
{
  static const ParamTable t = {
      ParamSpec::text("group", "platform group whose hosts this model makes fail"),
  };
  return t;
}

void HostFaults::load(const YamlRef& faults)
{
  if (!faults.node().IsDefined() || faults.node().IsNull())
    return;
  if (!faults.node().IsSequence())
    faults.fail("expected a list of {group: ..., impl: " + join(Registry<FaultModel>::names(), " | ") + ", ...}");
  for (size_t i = 0; i < faults.node().size(); ++i) {
    const YamlRef item     = faults.item(i);
    const auto& entry      = Registry<FaultModel>::lookup(item);
    const ParamTable table = Registry<FaultModel>::table_for(entry, entry_params());
    const Params p(item, table);  // keeps a pointer to the table
    const GroupSpec& group = platform_.group_param(p, "group");
    if (model_of_[group.first_host] >= 0)
      p.fail("group", "group '" + group.name + "' already has a fault model");
    const uint64_t key = Rng::stream_key(seed_, "faults." + group.name);
    auto model         = entry.make(p, FaultModel::Context{platform_, group, key});
    auto causes        = model->causes();
    models_.push_back({&group, std::move(model), key, std::move(causes), item.location()});
    for (int64_t h = 0; h < group.count; ++h)
      model_of_[group.host(h)] = static_cast<int>(models_.size() - 1);
  }
}

// Faults faster than any work progresses would draw outages without end: the run stops at the
// limit, naming the entry that drew them.
void HostFaults::refuse_excess_outages(const Model& model, double reached_s) const
{
  const double mtbf_s = model.model->mtbf_s(0);
  throw SimulationError(model.at + ": faults of group '" + model.group->name + "': " +
                        excess_work(static_cast<double>(drawn_), kMostHostOutages,
                                    "that many drawn by simulated time " + readable_duration(reached_s) +
                                        ", a mean time between failures of " + readable_duration(mtbf_s) + " per host",
                                    "faults this frequent leave no time for work; a longer mtbf fits"));
}

const Outage& HostFaults::outage(HostId h, size_t k)
{
  auto& drawn        = outages_[h];
  const Model& model = models_[static_cast<size_t>(model_of_[h])];
  const size_t index = h - model.group->first_host;
  while (drawn.size() <= k) {
    const double previous_up = drawn.empty() ? 0 : drawn.back().up_s;
    if (std::isinf(previous_up)) {
      drawn.push_back({});
      continue;
    }
    if (++drawn_ > kMostHostOutages.most)
      refuse_excess_outages(model, previous_up);
    Rng rng = Rng::keyed(Rng::keyed(model.key, index).bits(), drawn.size());
    drawn.push_back(model.model->outage(index, drawn.size(), previous_up, rng));
  }
  return drawn[k];
}

Outage HostFaults::outage_at(HostId h, double t)
{
  if (model_of_[h] < 0)
    return {};
  for (size_t k = 0;; ++k) {
    const Outage& o = outage(h, k);
    if (o.up_s > t || std::isinf(o.down_s))
      return o;
  }
}

Outage HostFaults::next_outage(HostId h, double t)
{
  if (model_of_[h] < 0)
    return {};
  for (size_t k = 0;; ++k) {
    const Outage& o = outage(h, k);
    if (o.down_s >= t)
      return o;
  }
}

double HostFaults::mtbf_s(HostId h) const
{
  if (model_of_[h] < 0)
    return kInf;
  const Model& m = models_[static_cast<size_t>(model_of_[h])];
  return m.model->mtbf_s(h - m.group->first_host);
}

double HostFaults::set_rate(HostId first, size_t count) const
{
  double rate = 0;
  for (HostId h = first; h < first + count;) {
    if (model_of_[h] < 0) {
      ++h;
      continue;
    }
    const Model& m   = models_[static_cast<size_t>(model_of_[h])];
    const HostId end = std::min<HostId>(first + count, m.group->first_host + static_cast<HostId>(m.group->count));
    rate += m.model->set_rate(h - m.group->first_host, end - h);
    h = end;
  }
  return rate;
}

const FaultCause& HostFaults::cause(HostId h, const Outage& o) const
{
  const auto& causes = models_.at(static_cast<size_t>(model_of_.at(h))).causes;
  return causes.at(o.cause);
}

GroupFailures::GroupFailures(HostFaults& faults, HostId first, size_t count)
    : faults_(faults)
{
  for (HostId h = first; h < first + count; ++h)
    if (faults.may_fail(h))
      heap_.emplace_back(faults.next_failure(h, 0), h);
  std::make_heap(heap_.begin(), heap_.end(), Later());
  const double rate = faults.set_rate(first, count);
  mtbf_s_           = rate > 0 ? 1 / rate : kInf;
}

std::pair<double, HostId> GroupFailures::next(double t)
{
  while (!heap_.empty() && heap_.front().first < t) {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    heap_.back().first = faults_.next_failure(heap_.back().second, t);
    std::push_heap(heap_.begin(), heap_.end(), Later());
  }
  if (heap_.empty())
    return {kInf, 0};
  return heap_.front();
}

std::vector<HostId> GroupFailures::starting_at(double t)
{
  std::vector<std::pair<double, HostId>> at;
  while (!heap_.empty() && heap_.front().first == t) {
    std::pop_heap(heap_.begin(), heap_.end(), Later());
    at.push_back(heap_.back());
    heap_.pop_back();
  }
  std::vector<HostId> hosts;
  for (const auto& entry : at) {
    hosts.push_back(entry.second);
    heap_.push_back(entry);
    std::push_heap(heap_.begin(), heap_.end(), Later());
  }
  return hosts;  // popped in (time, host) order: lowest first
}

}  // namespace llsim
