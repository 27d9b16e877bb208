#include "sim/faults/fault_event_trace.hpp"

#include "sim/core/csv.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/json_text.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace llsim {

namespace {

constexpr double kSecondsPerDay = 86400;
constexpr double kMaxDays       = 1e6;
constexpr const char* kExpected =
    "a JSON array of {\"node_id\": text, \"event_time\": days, \"event_type\": \"fault_start\" | \"fault_end\", "
    "\"fault_type\": {\"Level\": text, \"Class\": text, \"Desc\": text}}";

struct BadEvent : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const std::string& text_field(const nlohmann::json& o, const char* key, const char* where)
{
  const auto it = o.find(key);
  if (it == o.end() || !it->is_string())
    throw BadEvent(std::string("'") + key + "'" + where + " must be a text");
  return it->get_ref<const std::string&>();
}

}  // namespace

FaultEventTrace parse_fault_event_trace(const std::string& text, const std::string& file)
{
  const nlohmann::json doc = parse_json_text(text, file, kExpected);
  if (!doc.is_array())
    throw ConfigError(file + ":1: expected " + std::string(kExpected));
  if (doc.size() > kMaxFaultEvents)
    throw ConfigError(file + ": more than " + std::to_string(kMaxFaultEvents) + " events, llsim's limit");
  const std::vector<size_t> lines = array_item_lines(text);
  FaultEventTrace trace;
  std::map<std::string, size_t> node_index;
  std::map<std::pair<size_t, std::string>, std::vector<size_t>> open;  // (node, type) -> open faults
  for (size_t i = 0; i < doc.size(); ++i) {
    const std::string where = file + ":" + std::to_string(i < lines.size() ? lines[i] : 1) + ": ";
    try {
      const nlohmann::json& e = doc[i];
      if (!e.is_object())
        throw BadEvent("an event must be an object");
      const std::string& node = text_field(e, "node_id", "");
      const std::string& kind = text_field(e, "event_type", "");
      const auto time         = e.find("event_time");
      if (time == e.end() || !time->is_number() || !(time->get<double>() >= 0) || time->get<double>() > kMaxDays)
        throw BadEvent("'event_time' must be a number of days from 0 to 10^6");
      const auto type = e.find("fault_type");
      if (type == e.end() || !type->is_object())
        throw BadEvent("'fault_type' must be an object {Level, Class, Desc}");
      TraceFault f;
      f.level                 = text_field(*type, "Level", " of fault_type");
      f.cls                   = text_field(*type, "Class", " of fault_type");
      f.desc                  = text_field(*type, "Desc", " of fault_type");
      const double t          = time->get<double>() * kSecondsPerDay;
      const auto [it, is_new] = node_index.emplace(node, trace.nodes.size());
      if (is_new)
        trace.nodes.push_back(node);
      f.node             = it->second;
      auto& same         = open[{f.node, f.level + '\n' + f.cls + '\n' + f.desc}];
      trace.last_event_s = std::max(trace.last_event_s, t);
      const size_t line  = i < lines.size() ? lines[i] : 1;
      if (kind == "fault_start") {
        f.start_s    = t;
        f.start_line = line;
        same.push_back(trace.faults.size());
        trace.faults.push_back(std::move(f));
      } else if (kind == "fault_end") {
        if (same.empty())
          throw BadEvent("a fault_end of node " + node + " with no open fault_start of the same fault_type");
        TraceFault& started = trace.faults[same.front()];
        if (t < started.start_s)
          throw BadEvent("this fault_end comes before its fault_start (line " + std::to_string(started.start_line) +
                         ")");
        started.end_s    = t;
        started.end_line = line;
        same.erase(same.begin());
      } else {
        throw BadEvent("'event_type' must be fault_start or fault_end, got '" + kind + "'");
      }
    } catch (const BadEvent& b) {
      throw ConfigError(where + b.what());
    }
  }
  for (const auto& [key, faults] : open)
    if (!faults.empty())
      throw ConfigError(file + ":" + std::to_string(trace.faults[faults.front()].start_line) +
                        ": this fault_start of node " + trace.nodes[key.first] +
                        " never ends (no fault_end of the "
                        "same node and fault_type follows it)");
  std::stable_sort(trace.faults.begin(), trace.faults.end(),
                   [](const TraceFault& a, const TraceFault& b) { return a.start_s < b.start_s; });
  return trace;
}

FaultEventTrace read_fault_event_trace(const std::string& file)
{
  std::ifstream in = open_input_file(file, "a fault trace");
  std::stringstream text;
  text << in.rdbuf();
  return parse_fault_event_trace(text.str(), file);
}

FaultClass fault_class_of(const TraceFault& f)
{
  if (f.level == "Software Failure")
    return FaultClass::Software;
  if (f.level != "Hardware Failure")
    return FaultClass::Other;
  if (f.cls == "GPU")
    return f.desc.find("ECC") != std::string::npos ? FaultClass::Hbm : FaultClass::Gpu;
  if (f.cls == "NIC")
    return FaultClass::Nic;
  if (f.cls == "Parameter Plane Cable")
    return FaultClass::Switch;
  return FaultClass::Host;
}

}  // namespace llsim
