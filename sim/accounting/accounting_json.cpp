#include "sim/accounting/accounting_json.hpp"

#include "sim/core/json_number.hpp"
#include "sim/svc/storage.hpp"

namespace llsim {

namespace {

nlohmann::ordered_json prices_json(const FinishedRun& run)
{
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const GroupSpec& g : run.platform.groups) {
    nlohmann::ordered_json group;
    group["price_basis"] =
        g.cost.basis.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.cost.basis);
    group["price"]         = json_number(g.cost.given);
    group["per_host_hour"] = json_number(g.cost.per_host_hour);
    group["idle_W"]        = json_number(idle_power_W(g));
    group["busy_W"]        = json_number(busy_power_W(g));
    groups[g.name]         = group;
  }
  nlohmann::ordered_json storage = nlohmann::ordered_json::object();
  for (const Service* s : run.services.all())
    if (const auto* st = dynamic_cast<const StorageService*>(s))
      storage[s->name()] = {{"per_TB_month", json_number(st->per_TB_month())}};
  nlohmann::ordered_json network = nlohmann::ordered_json::array();
  for (const NetworkPrice& n : run.prices.network)
    network.push_back({{"from", n.from}, {"to", n.to}, {"per_GB", json_number(n.per_GB)}});
  return {{"groups", groups}, {"storage", storage}, {"network", network}};
}

nlohmann::ordered_json bill_json(const Bill& bill)
{
  nlohmann::ordered_json groups = nlohmann::ordered_json::object();
  for (const GroupBill& g : bill.groups)
    groups[g.group] = {{"host_hours", json_number(g.host_hours)},
                       {"busy_host_hours", json_number(g.busy_host_hours)},
                       {"gpu_load_hours", json_number(g.gpu_load_hours)},
                       {"energy_kwh", json_number(g.energy_kwh)},
                       {"cost", json_number(g.cost)}};
  nlohmann::ordered_json out = json_metrics({{"cost", bill.cost}, {"energy_kwh", bill.energy_kwh}});
  out["groups"]              = groups;
  if (!bill.network.empty()) {
    out["network"] = nlohmann::ordered_json::array();
    for (const NetworkBill& n : bill.network)
      out["network"].push_back({{"from", n.from},
                                {"to", n.to},
                                {"GB", json_number(n.GB)},
                                {"per_GB", json_number(n.per_GB)},
                                {"cost", json_number(n.cost)}});
  }
  if (bill.storage_TB_months > 0 || bill.storage_cost > 0) {
    out["storage_TB_months"] = json_number(bill.storage_TB_months);
    out["storage_cost"]      = json_number(bill.storage_cost);
  }
  return out;
}

}  // namespace

nlohmann::ordered_json accounting_json(const FinishedRun& run, const Accounting& a)
{
  nlohmann::ordered_json out;
  out["currency"] = run.prices.currency;
  out["pue"]      = json_number(run.prices.pue);
  out["per_kWh"]  = json_number(run.prices.per_kWh);
  out["prices"]   = prices_json(run);
  out["phases"]   = nlohmann::ordered_json::object();
  out["services"] = nlohmann::ordered_json::object();
  for (size_t i = 0; i < run.phases.size(); ++i)
    out["phases"][run.phases[i].name] = bill_json(a.phases[i]);
  for (size_t i = 0; i < run.service_results.size(); ++i)
    out["services"][run.service_results[i].name] = bill_json(a.services[i]);
  out["unbilled_groups"] = a.unbilled;
  return out;
}

}  // namespace llsim
