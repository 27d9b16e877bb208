// The scenario's top-level `accounting` section: what prices are in and what the facility adds.
//
//   accounting: {currency: USD, pue: 1.2, per_kWh: 0.08,
//                network: [{from: gpu, to: oss, per_GB: 0.01}]}
//
// Prices themselves sit with what they price: host groups (`cost`, `power`: group_prices.hpp)
// and storage services (`cost: {per_TB_month}`). sim/accounting/accounting.hpp adds them up.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"

#include <string>
#include <vector>

namespace llsim {

// A price per GB (1e9 B) delivered from one host group's hosts to another's (the same group
// for traffic within it); one direction only.
struct NetworkPrice {
  std::string from, to;
  double per_GB = 0;
};

struct AccountingSpec {
  std::string currency = "USD";  // a label: every price is in it
  double pue           = 1;      // facility energy / IT energy
  double per_kWh       = 0;      // price of a facility kWh, added to every cost
  std::vector<NetworkPrice> network;
};

const ParamTable& accounting_params();
// Network prices name groups of `platform`.
AccountingSpec parse_accounting(const Params& p, const PlatformSpec& platform);

}  // namespace llsim
