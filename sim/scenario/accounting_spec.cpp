#include "sim/scenario/accounting_spec.hpp"

#include <cctype>

namespace llsim {

const ParamTable& accounting_params()
{
  static const ParamTable t = {
      ParamSpec::text("currency", "the currency every price is in (a label in outputs)").defaults("USD"),
      ParamSpec::quantity("pue", Dimension::Number, "power usage effectiveness: facility energy / IT energy")
          .defaults("1")
          .at_least(1)
          .at_most(10),
      ParamSpec::quantity("per_kWh", Dimension::Number,
                          "price of one facility kWh, added to every cost (0: energy is in the hourly prices)")
          .defaults("0")
          .at_least(0)
          .at_most(1e12),
  };
  return t;
}

AccountingSpec parse_accounting(const Params& p)
{
  AccountingSpec a;
  a.currency = p.text("currency");
  if (a.currency.empty() || a.currency.size() > 16 || !std::isalpha(static_cast<unsigned char>(a.currency[0])) ||
      a.currency.find_first_of(" \t\n,\"") != std::string::npos)
    p.fail("currency", "expected a short label such as USD or EUR");
  a.pue     = p.quantity("pue");
  a.per_kWh = p.quantity("per_kWh");
  return a;
}

}  // namespace llsim
