#include "sim/run/outputs.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace llsim {

namespace {

std::string json_string(const std::string& s)
{
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// JSON has no infinity or NaN: those are written as null (e.g. the MTBF of a job that never fails).
std::string json_number(double v)
{
  return std::isfinite(v) ? format_number(v) : "null";
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content)
{
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.close();
    if (!out)
      throw SimulationError("cannot write '" + temporary + "'");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error)
    throw SimulationError("cannot rename '" + temporary + "' to '" + path + "': " + error.message());
}

std::string summary_json(const Scenario& scenario, const SimulationResult& result, double wall_time_s)
{
  std::string out = "{\n";
  out += "  \"scenario\": " + json_string(scenario.name) + ",\n";
  out += "  \"seed\": " + std::to_string(scenario.seed) + ",\n";
  out += "  \"simulated_time_s\": " + format_number(result.simulated_time_s) + ",\n";
  out += "  \"wall_time_s\": " + format_number(wall_time_s) + ",\n";
  out += "  \"phases\": {";
  for (size_t i = 0; i < result.phases.size(); ++i) {
    const PhaseResult& p = result.phases[i];
    out += (i == 0 ? "\n" : ",\n");
    out += "    " + json_string(p.name) + ": {\n";
    out += "      \"kind\": " + json_string(p.kind) + ",\n";
    out += "      \"start_s\": " + format_number(p.start_s) + ",\n";
    out += "      \"end_s\": " + format_number(p.end_s);
    for (const auto& [metric, value] : p.metrics)
      out += ",\n      " + json_string(metric) + ": " + json_number(value);
    out += "\n    }";
  }
  out += "\n  }\n}\n";
  return out;
}

void write_outputs(const std::string& dir, const Scenario& scenario, const SimulationResult& result,
                   double wall_time_s)
{
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    throw SimulationError("cannot create the output directory '" + dir + "': " + error.message());
  for (const auto& phase : result.phases)
    for (const auto& t : phase.tables)
      write_file_atomically(dir + "/" + phase.name + (t.suffix.empty() ? "" : "_" + t.suffix) + ".csv",
                            t.table.text());
  YAML::Emitter resolved;
  resolved << scenario.tree;
  write_file_atomically(dir + "/resolved.yaml", std::string("# Scenario as run by llsim, every default filled in.\n") +
                                                    resolved.c_str() + "\n");
  write_file_atomically(dir + "/summary.json", summary_json(scenario, result, wall_time_s));
}

}  // namespace llsim
