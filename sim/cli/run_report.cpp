#include "sim/cli/run_report.hpp"

#include "sim/cli/bottleneck_report.hpp"
#include "sim/cli/cost_report.hpp"
#include "sim/cli/metrics_listing.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/core/text.hpp"
#include "sim/phase/phase.hpp"
#include "sim/svc/service.hpp"

#include <algorithm>
#include <filesystem>

namespace llsim {

namespace {

// Each metric's value by its declared unit, and the declaration's description.
std::string metric_rows(const std::string& family, const std::string& kind, const Metrics& metrics)
{
  const MetricDeclaration* declared = MetricCatalog::find(family, kind);
  std::string out                   = "| metric | value | description |\n|---|---|---|\n";
  for (const auto& [name, value] : metrics) {
    const MetricSpec* spec = declared != nullptr ? declared->find(name) : nullptr;
    out += "| `" + name + "` | " + readable_metric(family, kind, name, value) + " | " +
           markdown_cell(spec != nullptr ? spec->description : std::string()) + " |\n";
  }
  return out;
}

}  // namespace

std::string markdown_command(const std::vector<std::string>& argv)
{
  std::string out;
  for (const auto& a : argv)
    out += (out.empty() ? "" : " ") + shell_quote(a);
  return "`" + out + "`";
}

std::vector<std::string> plots_in(const std::string& dir)
{
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/plots", ec))
    if (e.path().extension() == ".png")
      out.push_back("plots/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string notes_section(const std::vector<std::string>& notes)
{
  if (notes.empty())
    return "";
  std::string out = "## Notes\n\n";
  for (const std::string& note : notes)
    out += "- " + note + "\n";
  return out + "\n";
}

std::string run_report(const Scenario& scenario, const LoadOptions& load, const SimulationResult& result,
                       const std::vector<std::string>& plots)
{
  std::vector<std::string> command = {"llsim", "run", scenario.file, "--seed", std::to_string(scenario.seed)};
  for (const auto& s : load.overrides)
    command.insert(command.end(), {"--set", s});
  std::string out = "# " + scenario.name + "\n\n";
  out += "- Scenario: `" + scenario.file + "`, seed " + std::to_string(scenario.seed) + "\n";
  out += "- Overrides: " + std::string(load.overrides.empty() ? "none" : std::to_string(load.overrides.size())) + "\n";
  for (const auto& s : load.overrides)
    out += "  - `" + s + "`\n";
  out += "- Reproduce: " + markdown_command(command) + " (the values in force are in `resolved.yaml`)\n";
  out += "- Simulated time: " + readable_duration(result.simulated_time_s) + "\n\n";
  out += notes_section(scenario.notes);

  out += "## Phases\n\n| phase | kind | start | end |\n|---|---|---|---|\n";
  for (const auto& p : result.phases)
    out += "| " + p.name + " | " + p.kind + " | " + readable_duration(p.start_s) + " | " + readable_duration(p.end_s) +
           " |\n";
  for (const auto& p : result.phases)
    out += "\n### " + p.name + " (" + p.kind + ")\n\n" + metric_rows(Phase::kInterfaceName, p.kind, p.metrics);
  if (!result.services.empty()) {
    out += "\n## Services\n";
    for (const auto& s : result.services)
      out += "\n### " + s.name + " (" + s.kind + ")\n\n" + metric_rows(Service::kInterfaceName, s.kind, s.totals);
  }
  out += cost_section(scenario, result);
  out += bottleneck_section(result);
  out += "\n## Plots\n\n";
  if (plots.empty())
    out += "None drawn: run with `--plot`, or `/usr/bin/python3 analysis/plot.py DIR`.\n";
  for (const auto& p : plots)
    out += "![" + std::filesystem::path(p).stem().string() + "](" + p + ")\n";
  return out;
}

}  // namespace llsim
