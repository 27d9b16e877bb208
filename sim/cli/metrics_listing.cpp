#include "sim/cli/metrics_listing.hpp"

#include "sim/core/metrics.hpp"

namespace llsim {

std::string markdown_cell(const std::string& text)
{
  std::string out;
  for (char c : text)
    out += c == '|' ? std::string("\\|") : c == '<' ? std::string("&lt;") : std::string(1, c);
  return out;
}

std::string metrics_listing(const std::string& family, const std::string& name, bool markdown)
{
  const MetricDeclaration* declared = MetricCatalog::find(family, name);
  if (declared == nullptr || declared->table.empty())
    return "";
  std::string out;
  if (markdown) {
    out += "Metrics (declared in `" + declared->file + "`):\n\n| metric | unit | description |\n|---|---|---|\n";
    for (const MetricSpec& m : declared->table)
      out += "| `" + m.name + "` | " + metric_unit_name(m.unit) + " | " + markdown_cell(m.description) + " |\n";
    return out + "\n";
  }
  out += "    metrics (declared in " + declared->file + "):\n";
  for (const MetricSpec& m : declared->table)
    out += "      " + m.name + "  (" + metric_unit_name(m.unit) + ")\n          " + m.description + "\n";
  return out;
}

}  // namespace llsim
