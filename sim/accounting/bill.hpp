// The closed forms of the accounting (sim/accounting/accounting.hpp), for one host group:
//
//   IT power of a host        idle: host idle + GPUs x GPU idle
//                             busy: host busy + GPUs x GPU tdp    (linear in the busy share)
//   energy (kWh)              PUE x (held x idle power + busy x (host busy - host idle)
//                                    + GPU load x GPUs x (tdp - GPU idle)) / 3.6e6
// where GPU load is the busy time weighted by GPU utilisation (sim/serve/cost/gpu_load.hpp; the busy
// time itself when the phase does not say).
//   cost                      held hours x price per host-hour + energy x price per kWh
//   storage cost              bytes x seconds / (1e12 B x 730 h x 3600 s) x price per TB-month
//   network cost              bytes delivered from group a to group b / 1e9 x price per GB (a -> b)
#pragma once
#include "sim/accounting/accounting_spec.hpp"
#include "sim/core/metrics.hpp"
#include "sim/platform/platform_spec.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llsim {

constexpr double kSecondsPerMonth = 730 * 3600.0;  // a year's 8,760 hours / 12, as cloud price sheets bill

struct GroupBill {
  std::string group;
  double host_hours      = 0;  // allocated
  double busy_host_hours = 0;  // at work, within those
  double gpu_load_hours  = 0;  // GPU work at full load, host-hours (busy x utilisation)
  double energy_kwh      = 0;  // facility energy (PUE applied)
  double cost            = 0;
};

// Priced traffic from one group to another.
struct NetworkBill {
  std::string from, to;
  double GB = 0, per_GB = 0, cost = 0;
};

struct Bill {
  std::vector<GroupBill> groups;
  std::vector<NetworkBill> network;
  double storage_TB_months = 0;
  double storage_cost      = 0;
  double cost = 0, energy_kwh = 0;
  Metrics per_unit;  // cost_per_<unit> and kwh_per_<unit> (null when no unit was done)

  // cost, energy_kwh, then per_unit: what summary.json adds to a phase or a service.
  Metrics metrics() const;
};

struct Accounting {
  std::vector<Bill> phases;    // as SimulationResult::phases
  std::vector<Bill> services;  // as SimulationResult::services
  double cost = 0, energy_kwh = 0;
  std::vector<std::string> unbilled;  // groups nothing held
};

double idle_power_W(const GroupSpec& g);  // one host, its GPUs included
double busy_power_W(const GroupSpec& g);
// The host-seconds a holder of a group was allocated, at work, and of GPU work at full load.
struct GroupTime {
  double held_s = 0, busy_s = 0, gpu_load_s = 0;
};
GroupBill bill_group(const GroupSpec& g, const GroupTime& t, const AccountingSpec& a);
double storage_cost(double byte_seconds, double per_TB_month);
// The priced lines of `bytes` by (from group, to group); unpriced traffic costs nothing.
std::vector<NetworkBill> bill_network(const std::map<std::pair<std::string, std::string>, double>& bytes,
                                      const AccountingSpec& a);

// Time shared by overlapping holders: for intervals [start, end), the seconds each pays when a
// stretch covered by k of them is split evenly among the k.
std::vector<double> shared_seconds(const std::vector<std::pair<double, double>>& intervals);

}  // namespace llsim
