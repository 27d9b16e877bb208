#include "sim/accounting/accounting_spec.hpp"

#include <cctype>
#include <set>

namespace llsim {

namespace {

const ParamTable& network_price_params()
{
  static const ParamTable t = {
      ParamSpec::text("from", "the sending host group"),
      ParamSpec::text("to", "the receiving host group (the same group: traffic within it)"),
      ParamSpec::quantity("per_GB", Dimension::Number, "price of 1 GB (1e9 B) delivered from `from` to `to`")
          .at_least(0)
          .at_most(1e12),
  };
  return t;
}

}  // namespace

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
      ParamSpec::list("network", "prices of traffic between host groups, each {from, to, per_GB}; one "
                                 "direction each (docs/accounting.md)")
          .defaults("[]")
          .with_fields(network_price_params()),
  };
  return t;
}

AccountingSpec parse_accounting(const Params& p, const PlatformSpec& platform)
{
  AccountingSpec a;
  a.currency = p.text("currency");
  if (a.currency.empty() || a.currency.size() > 16 || !std::isalpha(static_cast<unsigned char>(a.currency[0])) ||
      a.currency.find_first_of(" \t\n,\"") != std::string::npos)
    p.fail("currency", "expected a short label such as USD or EUR");
  a.pue              = p.quantity("pue");
  a.per_kWh          = p.quantity("per_kWh");
  const YamlRef list = p.raw("network");
  if (!list.node().IsSequence())
    list.fail("expected a list of {from, to, per_GB}");
  std::set<std::pair<std::string, std::string>> seen;
  for (size_t i = 0; i < list.node().size(); ++i) {
    const Params n(list.item(i), network_price_params());
    NetworkPrice price{platform.group_param(n, "from").name, platform.group_param(n, "to").name, n.quantity("per_GB")};
    if (!seen.insert({price.from, price.to}).second)
      n.ref().fail("traffic from '" + price.from + "' to '" + price.to + "' is priced twice");
    a.network.push_back(price);
  }
  return a;
}

}  // namespace llsim
