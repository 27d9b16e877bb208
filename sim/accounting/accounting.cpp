#include "sim/accounting/accounting.hpp"

#include "sim/accounting/accounting_metrics.hpp"
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

std::vector<Hold> holds_of(const FinishedRun& run)
{
  std::vector<Hold> holds;
  for (size_t i = 0; i < run.phases.size(); ++i) {
    const std::vector<GroupUse>& reported = run.phases[i].usage;
    std::set<std::string> seen;
    for (const std::string& name : run.phases[i].groups) {
      if (!seen.insert(name).second)
        continue;
      Hold h{i, run.platform.find(name), std::nullopt, 0, std::nullopt};
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

// What the phases held of a group and were busy on it, in host-seconds.
struct PhasesOnGroup {
  double held_s = 0, busy_s = 0;
};

// A group's hosts are busy at most all the run. Phases that worked on the same hosts at once can
// say more; their busy time (and GPU load) is then cut in proportion to that ceiling.
std::map<std::string, double> phase_busy_scale(const std::vector<Hold>& holds, double run_s)
{
  std::map<std::string, double> busy;
  for (const Hold& h : holds)
    busy[h.group->name] += h.busy_host_s;
  std::map<std::string, double> scale;
  for (const Hold& h : holds) {
    const double ceiling = static_cast<double>(h.group->count) * run_s;
    const double said    = busy[h.group->name];
    scale[h.group->name] = said > ceiling ? ceiling / said : 1;
  }
  return scale;
}

std::map<std::string, PhasesOnGroup> bill_phases(const FinishedRun& run, Accounting& out)
{
  const std::vector<Hold> holds = holds_of(run);
  // Phases on one group at the same time share its time evenly over their spans; a phase that
  // reports what it held (a serve phase's instances) pays that, at most its share.
  std::map<std::string, std::vector<size_t>> by_group;
  for (size_t k = 0; k < holds.size(); ++k)
    by_group[holds[k].group->name].push_back(k);
  std::vector<double> held(holds.size(), 0);
  for (const auto& [group, ks] : by_group) {
    std::vector<std::pair<double, double>> spans;
    for (size_t k : ks)
      spans.emplace_back(run.phases[holds[k].phase].start_s, run.phases[holds[k].phase].end_s);
    const std::vector<double> paid = shared_seconds(spans);
    for (size_t j = 0; j < ks.size(); ++j) {
      const Hold& h = holds[ks[j]];
      held[ks[j]]   = paid[j] * static_cast<double>(h.group->count);
      if (h.held_host_s)
        held[ks[j]] = std::min(held[ks[j]], *h.held_host_s);
    }
  }
  const std::map<std::string, double> scale = phase_busy_scale(holds, run.simulated_time_s);
  std::map<std::string, PhasesOnGroup> on_group;
  for (size_t k = 0; k < holds.size(); ++k) {
    const Hold& h    = holds[k];
    const double cut = scale.at(h.group->name);
    const GroupTime t{held[k], h.busy_host_s * cut, h.gpu_load_host_s.value_or(h.busy_host_s) * cut};
    on_group[h.group->name].held_s += t.held_s;
    on_group[h.group->name].busy_s += t.busy_s;
    add(out.phases[h.phase], bill_group(*h.group, t, run.prices));
  }
  return on_group;
}

// A service's servers' busy time: its utilisation over the whole run, scaled by the bytes it was
// charged (a train phase's io_replay: moved at a cost measured earlier, not through the servers)
// over the bytes it moved, as if each charged byte kept the servers as busy as a moved one.
double service_busy_s(const GroupSpec& g, const Metrics& totals, double run_s)
{
  const double busy = metric(totals, "utilisation") * static_cast<double>(g.count) * run_s;
  if (!std::isfinite(busy))
    return 0;
  double charged = 0;
  for (const char* name : {"charged_bytes", "charged_bytes_written", "charged_bytes_read"})
    if (const double b = metric(totals, name); std::isfinite(b))
      charged += b;
  const double moved = metric(totals, "bytes");
  return moved > 0 && charged > 0 ? busy * (moved + charged) / moved : busy;
}

// A service's servers are allocated the whole run; it pays for the time phases did not hold them.
void bill_services(const FinishedRun& run, const std::map<std::string, PhasesOnGroup>& phases, Accounting& out)
{
  const double run_s = run.simulated_time_s;
  std::map<std::string, double> sharing, busy_said;  // services per server group; their busy time
  std::vector<double> busy;
  size_t i = 0;
  for (const Service* s : run.services.all()) {
    sharing[s->servers().name] += 1;
    busy.push_back(service_busy_s(s->servers(), run.service_results[i++].totals, run_s));
    busy_said[s->servers().name] += busy.back();
  }
  i = 0;
  for (const Service* s : run.services.all()) {
    const GroupSpec& g         = s->servers();
    const auto on_group        = phases.find(g.name);
    const PhasesOnGroup phased = on_group == phases.end() ? PhasesOnGroup{} : on_group->second;
    const double all_s         = static_cast<double>(g.count) * run_s;
    const double held_s        = std::max(0.0, all_s - phased.held_s) / sharing[g.name];
    // Its servers' time at work, whoever held them meanwhile (a phase pays their idle power then),
    // cut to what the phases' busy time leaves of the hosts' time. Services use no GPU.
    const double room = std::max(0.0, all_s - phased.busy_s), said = busy_said[g.name];
    const double busy_s = said > room ? busy[i] * room / said : busy[i];
    Bill& bill          = out.services[i];
    add(bill, bill_group(g, {held_s, busy_s, 0}, run.prices));
    if (const auto* storage = dynamic_cast<const StorageService*>(s)) {
      const double byte_seconds = storage->stored_byte_seconds(run.simulated_time_s);
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

Accounting account(const FinishedRun& run)
{
  Accounting out;
  out.phases.resize(run.phases.size());
  out.services.resize(run.service_results.size());
  std::set<std::string> held;
  bill_services(run, bill_phases(run, out), out);
  for (size_t i = 0; i < out.phases.size(); ++i) {
    add_network(out.phases[i], bill_network(run.phases[i].traffic, run.prices));
    per_unit(run.phases[i].kind, run.phases[i].metrics, out.phases[i]);
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
  for (const GroupSpec& g : run.platform.groups)
    if (held.count(g.name) == 0)
      out.unbilled.push_back(g.name);
  return out;
}

}  // namespace llsim
