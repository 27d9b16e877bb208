// The `accounting` object of summary.json: the prices and power figures used, and each phase's
// and service's bill by group (host-hours, busy host-hours, kWh, cost) and storage.
#pragma once
#include "sim/accounting/accounting.hpp"

#include <nlohmann/json.hpp>

namespace llsim {

nlohmann::ordered_json accounting_json(const FinishedRun& run, const Accounting& accounting);

}  // namespace llsim
