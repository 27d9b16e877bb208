#include "sim/accounting/bill.hpp"

#include <algorithm>

namespace llsim {

namespace {

double gpus(const GroupSpec& g)
{
  return g.gpu ? static_cast<double>(g.gpu->count) : 0;
}

}  // namespace

Metrics Bill::metrics() const
{
  Metrics m = {{"cost", cost}, {"energy_kwh", energy_kwh}};
  m.insert(m.end(), per_unit.begin(), per_unit.end());
  return m;
}

double idle_power_W(const GroupSpec& g)
{
  return g.power.idle_W + gpus(g) * (g.gpu ? g.gpu->idle_W : 0);
}

double busy_power_W(const GroupSpec& g)
{
  return g.power.busy_W + gpus(g) * (g.gpu ? g.gpu->tdp_W : 0);
}

GroupBill bill_group(const GroupSpec& g, const GroupTime& t, const AccountingSpec& a)
{
  GroupBill b;
  b.group             = g.name;
  b.host_hours        = t.held_s / 3600;
  b.busy_host_hours   = t.busy_s / 3600;
  b.gpu_load_hours    = g.gpu ? t.gpu_load_s / 3600 : 0;
  const double gpu_W  = g.gpu ? std::max(0.0, g.gpu->tdp_W - g.gpu->idle_W) : 0;
  const double joules = t.held_s * idle_power_W(g) + t.busy_s * std::max(0.0, g.power.busy_W - g.power.idle_W) +
                        t.gpu_load_s * gpus(g) * gpu_W;
  b.energy_kwh = a.pue * joules / 3.6e6;
  b.cost       = b.host_hours * g.cost.per_host_hour + b.energy_kwh * a.per_kWh;
  return b;
}

double storage_cost(double byte_seconds, double per_TB_month)
{
  return byte_seconds / (1e12 * kSecondsPerMonth) * per_TB_month;
}

std::vector<NetworkBill> bill_network(const std::map<std::pair<std::string, std::string>, double>& bytes,
                                      const AccountingSpec& a)
{
  std::vector<NetworkBill> lines;
  for (const NetworkPrice& price : a.network) {
    const auto it = bytes.find({price.from, price.to});
    if (it == bytes.end())
      continue;
    const double GB = it->second / 1e9;
    lines.push_back({price.from, price.to, GB, price.per_GB, GB * price.per_GB});
  }
  return lines;
}

std::vector<double> shared_seconds(const std::vector<std::pair<double, double>>& intervals)
{
  std::vector<double> points;
  for (const auto& [start, end] : intervals) {
    points.push_back(start);
    points.push_back(end);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<double> paid(intervals.size(), 0);
  for (size_t k = 0; k + 1 < points.size(); ++k) {
    const double from = points[k], to = points[k + 1];
    std::vector<size_t> covering;
    for (size_t i = 0; i < intervals.size(); ++i)
      if (intervals[i].first <= from && intervals[i].second >= to)
        covering.push_back(i);
    for (size_t i : covering)
      paid[i] += (to - from) / static_cast<double>(covering.size());
  }
  return paid;
}

}  // namespace llsim
