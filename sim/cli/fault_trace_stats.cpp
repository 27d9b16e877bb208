#include "sim/cli/fault_trace_stats.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/percentile.hpp"
#include "sim/core/text.hpp"
#include "sim/faults/fault_event_trace.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace llsim {

namespace {

// Faults of one class or cause, and what they say.
nlohmann::json summary_of(std::vector<double> repairs, double total, double nodes, double span_s)
{
  const double n = static_cast<double>(repairs.size());
  double sum     = 0;
  for (double r : repairs)
    sum += r;
  return {{"faults", repairs.size()},
          {"share", n / total},
          {"node_mtbf_s", nodes * span_s / n},
          {"cluster_mtbf_s", span_s / n},
          {"repair_s",
           {{"mean", sum / n},
            {"p50", percentile(repairs, 0.5)},
            {"p90", percentile(repairs, 0.9)},
            {"p99", percentile(repairs, 0.99)},
            {"max", *std::max_element(repairs.begin(), repairs.end())}}}};
}

void line_of(std::ostringstream& text, const std::string& name, const nlohmann::json& s)
{
  const auto time = [&](double v) { return readable_duration(v); };
  const auto& r   = s["repair_s"];
  text << "  " << std::left << std::setw(44) << name << std::right << std::setw(5) << s["faults"].get<size_t>()
       << std::setw(7) << std::fixed << std::setprecision(1) << 100 * s["share"].get<double>() << "%"
       << "  node MTBF " << time(s["node_mtbf_s"]) << ", cluster MTBF " << time(s["cluster_mtbf_s"]) << "; repair mean "
       << time(r["mean"]) << ", p50 " << time(r["p50"]) << ", p90 " << time(r["p90"]) << ", max " << time(r["max"])
       << "\n";
}

}  // namespace

int fault_trace_stats(const std::string& file, long long nodes_option, bool json)
{
  const FaultEventTrace trace = read_fault_event_trace(file);
  if (trace.faults.empty())
    throw ConfigError(file + ": no faults in the trace");
  if (nodes_option != 0 && nodes_option < static_cast<long long>(trace.nodes.size()))
    throw std::invalid_argument("--nodes " + std::to_string(nodes_option) + " is fewer than the " +
                                std::to_string(trace.nodes.size()) + " nodes with a fault in the trace");
  const double nodes = nodes_option > 0 ? static_cast<double>(nodes_option) : static_cast<double>(trace.nodes.size());
  const double span  = trace.last_event_s;
  std::map<std::string, std::vector<double>> by_class, by_cause;
  std::vector<double> all;
  for (const TraceFault& f : trace.faults) {
    by_class[fault_class_name(fault_class_of(f))].push_back(f.end_s - f.start_s);
    by_cause[f.cause()].push_back(f.end_s - f.start_s);
    all.push_back(f.end_s - f.start_s);
  }
  const double total = static_cast<double>(all.size());
  nlohmann::json j   = {{"file", file},
                        {"format", "infinitehbd"},
                        {"nodes", nodes},
                        {"nodes_with_faults", trace.nodes.size()},
                        {"span_s", span},
                        {"all", summary_of(all, total, nodes, span)},
                        {"classes", nlohmann::json::object()},
                        {"causes", nlohmann::json::object()}};
  for (auto& [name, repairs] : by_class)
    j["classes"][name] = summary_of(repairs, total, nodes, span);
  for (auto& [name, repairs] : by_cause)
    j["causes"][name] = summary_of(repairs, total, nodes, span);
  if (json) {
    std::cout << j.dump() << "\n";
    return kExitOk;
  }
  std::ostringstream text;
  text << file << " (infinitehbd): " << trace.faults.size() << " faults on " << trace.nodes.size() << " of "
       << format_number(nodes) << " nodes over " << readable_duration(span) << "\n";
  line_of(text, "all", j["all"]);
  text << " per class:\n";
  for (const auto& [name, s] : j["classes"].items())
    line_of(text, name, s);
  text << " per cause (the trace's Level/Class):\n";
  for (const auto& [name, s] : j["causes"].items())
    line_of(text, name, s);
  std::cout << text.str();
  return kExitOk;
}

}  // namespace llsim
