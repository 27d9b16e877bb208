// The scenario's top-level `accounting` section: what prices are in and what the facility adds.
//
//   accounting: {currency: USD, pue: 1.2, per_kWh: 0.08}
//
// Prices themselves sit with what they price: host groups (`cost`, `power`: group_prices.hpp)
// and storage services (`cost: {per_TB_month}`). sim/run/accounting.hpp adds them up.
#pragma once
#include "sim/core/params.hpp"

#include <string>

namespace llsim {

struct AccountingSpec {
  std::string currency = "USD";  // a label: every price is in it
  double pue           = 1;      // facility energy / IT energy
  double per_kWh       = 0;      // price of a facility kWh, added to every cost
};

const ParamTable& accounting_params();
AccountingSpec parse_accounting(const Params& p);

}  // namespace llsim
