#include "sim/core/metrics.hpp"

#include "sim/core/accounting_metrics.hpp"

#include <map>
#include <set>

namespace llsim {

namespace {

using Key = std::pair<std::string, std::string>;  // family, name

std::map<Key, MetricDeclaration>& declarations()
{
  static std::map<Key, MetricDeclaration> map;
  return map;
}

std::vector<std::string>& catalog_errors()
{
  static std::vector<std::string> list;
  return list;
}

// __FILE__ relative to the repository when the build says where that is.
std::string relative_source(const char* file)
{
  std::string path = file;
#ifdef LLSIM_SOURCE_DIR
  const std::string root = std::string(LLSIM_SOURCE_DIR) + "/";
  if (path.compare(0, root.size(), root) == 0)
    path = path.substr(root.size());
#endif
  return path;
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

bool MetricCatalog::add(const std::string& family, const std::string& name, MetricTable table, const char* file)
{
  const std::string source = relative_source(file);
  auto& map                = declarations();
  const auto taken         = map.find({family, name});
  if (taken != map.end()) {
    catalog_errors().push_back(kind_text(family, name) + " declares its metrics twice: in " + taken->second.file +
                               " and in " + source);
    return false;
  }
  table = joined(table, accounting_metrics(family, name));  // what every phase and service gains
  std::set<std::string> seen;
  for (const MetricSpec& m : table)
    if (!seen.insert(m.name).second)
      catalog_errors().push_back(source + ": " + kind_text(family, name) + " declares metric '" + m.name + "' twice");
  map.emplace(Key{family, name}, MetricDeclaration{family, name, source, std::move(table)});
  return true;
}

const MetricDeclaration* MetricCatalog::find(const std::string& family, const std::string& name)
{
  const auto& map = declarations();
  const auto it   = map.find({family, name});
  return it == map.end() ? nullptr : &it->second;
}

std::vector<const MetricDeclaration*> MetricCatalog::all()
{
  std::vector<const MetricDeclaration*> out;
  for (const auto& entry : declarations())
    out.push_back(&entry.second);
  return out;
}

const std::vector<std::string>& MetricCatalog::errors()
{
  return catalog_errors();
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
