#include "sim/run/accounting.hpp"

#include "sim/core/accounting_metrics.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace llsim {

namespace {

double metric(const Metrics& m, const std::string& name)
{
  for (const auto& [key, value] : m)
    if (key == name)
      return value;
  return NAN;
}

void add(Bill& bill, const GroupBill& group)
{
  bill.groups.push_back(group);
  bill.cost += group.cost;
  bill.energy_kwh += group.energy_kwh;
}

void add_network(Bill& bill, std::vector<NetworkBill> lines)
{
  for (const NetworkBill& line : lines)
    bill.cost += line.cost;
  bill.network = std::move(lines);
}

// What each phase held of each group: the phase's report, or the whole group over its time.
struct Hold {
  size_t phase;
  const GroupSpec* group;
  std::optional<double> held_host_s;
  double busy_host_s;
  std::optional<double> gpu_load_host_s;
};

std::vector<Hold> holds_of(const Scenario& scenario, const SimulationResult& result)
{
  std::vector<Hold> holds;
  for (size_t i = 0; i < scenario.phases.size(); ++i) {
    const PhaseEntry& phase = scenario.phases[i];
    std::vector<std::string> groups;
    for (const GroupClaim& c : phase.claims)
      groups.push_back(c.group);
    groups.insert(groups.end(), phase.uses.begin(), phase.uses.end());
    const std::vector<GroupUse> reported = result.phases[i].usage;
    std::set<std::string> seen;
    for (const std::string& name : groups) {
      if (!seen.insert(name).second)
        continue;
      Hold h{i, scenario.platform->find(name), std::nullopt, 0, std::nullopt};
      for (const GroupUse& u : reported)
        if (u.group == name) {
          h.held_host_s     = u.held_host_s;
          h.busy_host_s     = u.busy_host_s;
          h.gpu_load_host_s = u.gpu_load_host_s;
        }
      holds.push_back(h);
    }
  }
  return holds;
}

// Returns the host-seconds the phases held of each group.
std::map<std::string, double> bill_phases(const Scenario& scenario, const SimulationResult& result, Accounting& out)
{
  const std::vector<Hold> holds = holds_of(scenario, result);
  // Phases on one group at the same time share its time evenly over their spans; a phase that
  // reports what it held (a serve phase's instances) pays that, at most its share.
  std::map<std::string, std::vector<size_t>> by_group;
  for (size_t k = 0; k < holds.size(); ++k)
    by_group[holds[k].group->name].push_back(k);
  std::vector<double> held(holds.size(), 0);
  for (const auto& [group, ks] : by_group) {
    std::vector<std::pair<double, double>> spans;
    for (size_t k : ks)
      spans.emplace_back(result.phases[holds[k].phase].start_s, result.phases[holds[k].phase].end_s);
    const std::vector<double> paid = shared_seconds(spans);
    for (size_t j = 0; j < ks.size(); ++j) {
      const Hold& h = holds[ks[j]];
      held[ks[j]]   = paid[j] * static_cast<double>(h.group->count);
      if (h.held_host_s)
        held[ks[j]] = std::min(held[ks[j]], *h.held_host_s);
    }
  }
  std::map<std::string, double> held_by_phases;
  for (size_t k = 0; k < holds.size(); ++k) {
    const Hold& h            = holds[k];
    const double held_host_s = held[k];
    held_by_phases[h.group->name] += held_host_s;
    const GroupTime t{held_host_s, h.busy_host_s, h.gpu_load_host_s.value_or(h.busy_host_s)};
    add(out.phases[h.phase], bill_group(*h.group, t, scenario.accounting));
  }
  return held_by_phases;
}

// A service's servers are allocated the whole run; it pays for the time phases did not hold them.
void bill_services(const Scenario& scenario, const SimulationResult& result,
                   const std::map<std::string, double>& held_by_phases, Accounting& out)
{
  std::map<std::string, double> sharing;  // services per server group
  for (const Service* s : scenario.services->all())
    sharing[s->servers().name] += 1;
  size_t i = 0;
  for (const Service* s : scenario.services->all()) {
    const GroupSpec& g    = s->servers();
    const auto by_phases  = held_by_phases.find(g.name);
    const double phases_s = by_phases == held_by_phases.end() ? 0 : by_phases->second;
    const double held_s =
        std::max(0.0, static_cast<double>(g.count) * result.simulated_time_s - phases_s) / sharing[g.name];
    // Its servers' time at work, whoever held them meanwhile (a phase pays their idle power then).
    const double busy_s =
        metric(result.services[i].totals, "utilisation") * static_cast<double>(g.count) * result.simulated_time_s;
    Bill& bill        = out.services[i];
    const double busy = std::isfinite(busy_s) ? busy_s : 0;
    add(bill, bill_group(g, {held_s, busy, busy}, scenario.accounting));
    if (const auto* storage = dynamic_cast<const StorageService*>(s)) {
      const double byte_seconds = storage->stored_byte_seconds(result.simulated_time_s);
      bill.storage_TB_months    = byte_seconds / (1e12 * kSecondsPerMonth);
      bill.storage_cost         = storage_cost(byte_seconds, storage->per_TB_month());
      bill.cost += bill.storage_cost;
    }
    ++i;
  }
}

void per_unit(const std::string& kind, const Metrics& metrics, Bill& bill)
{
  for (const WorkUnit& u : work_units(kind)) {
    const double units = metric(metrics, u.metric) / u.divisor;
    const bool any     = std::isfinite(units) && units > 0;
    bill.per_unit.push_back({std::string("cost_per_") + u.name, any ? bill.cost / units : NAN});
    bill.per_unit.push_back({std::string("kwh_per_") + u.name, any ? bill.energy_kwh / units : NAN});
  }
}

}  // namespace

Accounting account(const Scenario& scenario, const SimulationResult& result)
{
  Accounting out;
  out.phases.resize(result.phases.size());
  out.services.resize(result.services.size());
  std::set<std::string> held;
  bill_services(scenario, result, bill_phases(scenario, result, out), out);
  for (size_t i = 0; i < out.phases.size(); ++i) {
    add_network(out.phases[i], bill_network(result.phases[i].traffic, scenario.accounting));
    per_unit(result.phases[i].kind, result.phases[i].metrics, out.phases[i]);
  }
  for (const Bill& b : out.phases)
    for (const GroupBill& g : b.groups)
      held.insert(g.group);
  for (const Bill& b : out.services) {
    out.cost += b.cost;
    out.energy_kwh += b.energy_kwh;
    for (const GroupBill& g : b.groups)
      held.insert(g.group);
  }
  for (const Bill& b : out.phases) {
    out.cost += b.cost;
    out.energy_kwh += b.energy_kwh;
  }
  for (const GroupSpec& g : scenario.platform->groups)
    if (held.count(g.name) == 0)
      out.unbilled.push_back(g.name);
  return out;
}

}  // namespace llsim
