#include "sim/cli/cost_report.hpp"

#include "sim/cli/metrics_listing.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/core/text.hpp"
#include "sim/svc/storage.hpp"

#include <cmath>
#include <cstdio>

namespace llsim {

namespace {

std::string per_unit_text(const Bill& bill, const std::string& currency)
{
  std::string out;
  for (const auto& [name, value] : bill.per_unit) {
    const bool cost        = name.rfind("cost_per_", 0) == 0;
    const std::string unit = name.substr(name.find("_per_") + 5);
    out += (out.empty() ? "" : ", ") + readable(MetricUnit::Number, value) + " " +
           (cost ? currency : std::string("kWh")) + " per " + unit;
  }
  return out;
}

bool anything(const SimulationResult& result)
{
  return result.accounting.cost > 0 || result.accounting.energy_kwh > 0;
}

std::string price_rows(const Scenario& scenario)
{
  const std::string& currency = scenario.accounting.currency;
  std::string out             = "| group | hosts | price | per host-hour | idle power / host | busy power / host |\n"
                                "|---|---|---|---|---|---|\n";
  for (const GroupSpec& g : scenario.platform->groups) {
    std::string price = g.cost.basis.empty()
                            ? "none (0)"
                            : readable(MetricUnit::Number, g.cost.given) + " " + currency + " " + g.cost.basis;
    std::string idle  = with_si_prefix(idle_power_W(g), "W");
    if (g.gpu && g.gpu->idle_W == 0)
      idle += " (GPU idle not given: 0 W)";
    std::string busy = with_si_prefix(busy_power_W(g), "W");
    if (g.gpu && g.gpu->tdp_W == 0)
      busy += " (GPU tdp not given: 0 W)";
    if (g.gpu && g.gpu->power_curve)
      busy += " (GPUs: measured power table, not linear in between)";
    out += "| " + g.name + " | " + std::to_string(g.count) + " | " + price + " | " +
           readable(MetricUnit::Number, g.cost.per_host_hour) + " " + currency + " | " + idle + " | " + busy + " |\n";
  }
  for (const Service* s : scenario.services->all())
    if (const auto* st = dynamic_cast<const StorageService*>(s); st != nullptr && st->per_TB_month() > 0)
      out += "\nStorage `" + s->name() + "`: " + readable(MetricUnit::Number, st->per_TB_month()) + " " + currency +
             " per TB-month (1e12 B for 730 h).\n";
  for (const NetworkPrice& n : scenario.accounting.network)
    out += "\nNetwork from `" + n.from + "` to `" + n.to + "`: " + readable(MetricUnit::Number, n.per_GB) + " " +
           currency + " per GB (1e9 B).\n";
  return out;
}

// The priced traffic of each phase, a row per group pair.
std::string network_rows(const SimulationResult& result, const std::string& currency)
{
  std::string out;
  for (size_t i = 0; i < result.phases.size(); ++i)
    for (const NetworkBill& n : result.accounting.phases[i].network)
      out += "| " + result.phases[i].name + " | " + n.from + " | " + n.to + " | " + readable(MetricUnit::Number, n.GB) +
             " | " + readable(MetricUnit::Number, n.cost) + " |\n";
  if (out.empty())
    return "";
  return "\nNetwork traffic billed (in the costs above):\n\n| paid by | from | to | GB | cost (" + currency +
         ") |\n|---|---|---|---|---|\n" + out;
}

std::string bill_row(const std::string& name, const Bill& bill, const std::string& currency)
{
  double hours = 0, busy = 0;
  for (const GroupBill& g : bill.groups) {
    hours += g.host_hours;
    busy += g.busy_host_hours;
  }
  std::string storage =
      bill.storage_TB_months > 0 ? readable(MetricUnit::Number, bill.storage_TB_months) + " TB-months" : "";
  return "| " + name + " | " + readable(MetricUnit::Number, hours) + " | " + readable(MetricUnit::Number, busy) +
         " | " + storage + " | " + readable(MetricUnit::Number, bill.energy_kwh) + " | " +
         readable(MetricUnit::Number, bill.cost) + " | " + markdown_cell(per_unit_text(bill, currency)) + " |\n";
}

}  // namespace

std::string cost_lines(const Scenario& scenario, const SimulationResult& result)
{
  if (!anything(result))
    return "";
  const Accounting& a         = result.accounting;
  const std::string& currency = scenario.accounting.currency;
  std::string out =
      "cost and energy (" + currency + ", PUE " + readable(MetricUnit::Number, scenario.accounting.pue) + "):";
  for (size_t i = 0; i < result.phases.size(); ++i) {
    const std::string per = per_unit_text(a.phases[i], currency);
    out += "  " + result.phases[i].name + " " + readable(MetricUnit::Number, a.phases[i].cost) + " " + currency + " " +
           readable(MetricUnit::Number, a.phases[i].energy_kwh) + " kWh" + (per.empty() ? "" : " (" + per + ")") + ";";
  }
  for (size_t i = 0; i < result.services.size(); ++i)
    out += "  " + result.services[i].name + " " + readable(MetricUnit::Number, a.services[i].cost) + " " + currency +
           " " + readable(MetricUnit::Number, a.services[i].energy_kwh) + " kWh;";
  return out + "  run " + readable(MetricUnit::Number, a.cost) + " " + currency + " " +
         readable(MetricUnit::Number, a.energy_kwh) + " kWh\n";
}

std::string cost_section(const Scenario& scenario, const SimulationResult& result)
{
  const Accounting& a         = result.accounting;
  const std::string& currency = scenario.accounting.currency;
  std::string out             = "\n## Cost and energy\n\n";
  out += "Run: **" + readable(MetricUnit::Number, a.cost) + " " + currency + "**, **" +
         readable(MetricUnit::Number, a.energy_kwh) + " kWh** (PUE " +
         readable(MetricUnit::Number, scenario.accounting.pue) + ", energy at " +
         readable(MetricUnit::Number, scenario.accounting.per_kWh) + " " + currency +
         " per kWh). Hosts are billed while allocated: a phase's from its start to its end (a "
         "serve phase's instances while allocated), a service's for the rest of the run. A host draws its idle "
         "power while allocated and its busy power while at work, its GPUs in proportion to their load.\n\n";
  out += "| phase or service | host-hours | busy host-hours | storage | kWh | cost (" + currency +
         ") | per unit of work |\n|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < result.phases.size(); ++i)
    out += bill_row(result.phases[i].name + " (" + result.phases[i].kind + ")", a.phases[i], currency);
  for (size_t i = 0; i < result.services.size(); ++i)
    out += bill_row(result.services[i].name + " (" + result.services[i].kind + ")", a.services[i], currency);
  out += network_rows(result, currency);
  out += "\nPrices and power used (`accounting` in summary.json):\n\n" + price_rows(scenario);
  if (!a.unbilled.empty())
    out += "\nNot billed (no phase or service used them): " + join(a.unbilled, ", ") + ".\n";
  return out;
}

}  // namespace llsim
