// The metrics the accounting (sim/accounting/accounting.hpp) adds to every phase and service in
// summary.json, after the kind's own: cost, energy_kwh, and for a phase its cost and energy per
// unit of the work its kind does (sim/phase/work_units.hpp). It appends them to MetricCatalog's table of each phase and service
// kind, so `llsim models` lists them with the kind's own.
#pragma once
#include "sim/core/metrics.hpp"
#include "sim/phase/work_units.hpp"

#include <string>
#include <vector>

namespace llsim {

// `family` "phase" or "service" (empty for any other family).
MetricTable accounting_metrics(const std::string& family, const std::string& kind);

}  // namespace llsim
