#include "sim/accounting/accounting_metrics.hpp"

namespace llsim {

MetricTable accounting_metrics(const std::string& family, const std::string& kind)
{
  if (family != "phase" && family != "service")
    return {};
  MetricTable t = {
      {"cost", MetricUnit::Currency,
       family == "phase" ? "what its hosts cost while it held them, energy priced included (docs/accounting.md)"
                         : "what its servers cost for the run's time no phase held them, and its stored bytes"},
      {"energy_kwh", MetricUnit::KilowattHours, "facility energy of the same hosts (PUE applied)"},
  };
  if (family == "phase")
    for (const WorkUnit& u : work_units(kind)) {
      t.push_back({std::string("cost_per_") + u.name, MetricUnit::Currency,
                   std::string("cost per unit of work: ") + u.description + " (null when none)"});
      t.push_back({std::string("kwh_per_") + u.name, MetricUnit::KilowattHours,
                   std::string("energy_kwh per the same unit (null when none)")});
    }
  return t;
}

namespace {
const bool appended = MetricCatalog::append_to_every(accounting_metrics);
}

}  // namespace llsim
