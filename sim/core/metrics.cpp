#include "sim/core/metrics.hpp"

#include "sim/core/registry.hpp"

#include <map>
#include <set>

namespace llsim {

namespace {

using Key = std::pair<std::string, std::string>;  // family, name

struct Catalog {
  std::map<Key, MetricDeclaration> declarations;  // as declared until complete
  std::vector<MetricAppendix> appendices;
  std::vector<std::string> errors;
  bool complete = false;
};

Catalog& catalog()
{
  static Catalog c;
  return c;
}

std::string kind_text(const std::string& family, const std::string& name)
{
  return family + " '" + name + "'";
}

}  // namespace

const char* metric_unit_name(MetricUnit unit)
{
  switch (unit) {
  case MetricUnit::Count:
    return "count";
  case MetricUnit::Seconds:
    return "s";
  case MetricUnit::Bytes:
    return "B";
  case MetricUnit::BytesPerSecond:
    return "B/s";
  case MetricUnit::PerSecond:
    return "1/s";
  case MetricUnit::Ratio:
    return "ratio";
  case MetricUnit::Flop:
    return "FLOP";
  case MetricUnit::Number:
    return "number";
  case MetricUnit::Currency:
    return "currency";
  case MetricUnit::KilowattHours:
    return "kWh";
  }
  return "?";
}

MetricTable joined(const MetricTable& first, const MetricTable& then)
{
  MetricTable out = first;
  out.insert(out.end(), then.begin(), then.end());
  return out;
}

const MetricSpec* MetricDeclaration::find(const std::string& metric) const
{
  for (const MetricSpec& m : table)
    if (m.name == metric)
      return &m;
  return nullptr;
}

namespace {

// A declaration with its appendices' rows after its own, each name once.
void complete(Catalog& c, MetricDeclaration& d)
{
  for (MetricAppendix appendix : c.appendices)
    d.table = joined(d.table, appendix(d.family, d.name));
  std::set<std::string> seen;
  for (const MetricSpec& m : d.table)
    if (!seen.insert(m.name).second)
      c.errors.push_back(d.file + ": " + kind_text(d.family, d.name) + " declares metric '" + m.name + "' twice");
}

// Static initialisers run in no set order across files, so the appendices join the tables at the
// first lookup, when every initialiser has run.
Catalog& completed()
{
  Catalog& c = catalog();
  if (!c.complete) {
    for (auto& entry : c.declarations)
      complete(c, entry.second);
    c.complete = true;
  }
  return c;
}

}  // namespace

bool MetricCatalog::add(const std::string& family, const std::string& name, MetricTable table, const char* file)
{
  Catalog& c               = catalog();
  const std::string source = source_relative(file);
  const auto taken         = c.declarations.find({family, name});
  if (taken != c.declarations.end()) {
    c.errors.push_back(kind_text(family, name) + " declares its metrics twice: in " + taken->second.file + " and in " +
                       source);
    return false;
  }
  if (c.complete) {
    c.errors.push_back(source + ": " + kind_text(family, name) + " declares its metrics after the catalogue was read");
    return false;
  }
  c.declarations.emplace(Key{family, name}, MetricDeclaration{family, name, source, std::move(table)});
  return true;
}

bool MetricCatalog::append_to_every(MetricAppendix appendix)
{
  Catalog& c = catalog();
  if (c.complete) {
    c.errors.push_back("metrics appended to every kind after the catalogue was read");
    return false;
  }
  c.appendices.push_back(appendix);
  return true;
}

const MetricDeclaration* MetricCatalog::find(const std::string& family, const std::string& name)
{
  const auto& map = completed().declarations;
  const auto it   = map.find({family, name});
  return it == map.end() ? nullptr : &it->second;
}

std::vector<const MetricDeclaration*> MetricCatalog::all()
{
  std::vector<const MetricDeclaration*> out;
  for (const auto& entry : completed().declarations)
    out.push_back(&entry.second);
  return out;
}

const std::vector<std::string>& MetricCatalog::errors()
{
  return completed().errors;
}

std::vector<std::string> metric_errors(const std::string& family, const std::string& name, const Metrics& written)
{
  std::vector<std::string> out;
  const MetricDeclaration* declared = MetricCatalog::find(family, name);
  if (declared == nullptr) {
    if (!written.empty())
      out.push_back(kind_text(family, name) + " wrote metric '" + written.front().first +
                    "' but declares no metrics: add LLSIM_DECLARE_METRICS(..., \"" + name +
                    "\", table) next to its registration");
    return out;
  }
  std::set<std::string> seen;
  for (const auto& [metric, value] : written) {
    (void)value;
    if (declared->find(metric) == nullptr)
      out.push_back(kind_text(family, name) + " wrote metric '" + metric + "', which its table in " + declared->file +
                    " does not declare");
    else if (!seen.insert(metric).second)
      out.push_back(kind_text(family, name) + " wrote metric '" + metric + "' twice (declared in " + declared->file +
                    ")");
  }
  return out;
}

}  // namespace llsim
