#include "sim/core/errors.hpp"
#include "sim/core/json_text.hpp"
#include "sim/faults/fault_event_trace.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::string event(const std::string& node, double days, const std::string& type, const std::string& cls = "GPU",
                  const std::string& desc = "GPU xid Error", const std::string& level = "Hardware Failure")
{
  return "{\"node_id\": \"" + node + "\", \"event_time\": " + std::to_string(days) + ", \"event_type\": \"" + type +
         "\",\n \"fault_type\": {\"Level\": \"" + level + "\", \"Class\": \"" + cls + "\", \"Desc\": \"" + desc +
         "\"}}";
}

}  // namespace

TEST_CASE("fault event trace: ends pair with starts of the same node and type", "[fault_model]")
{
  const std::string text = "[\n" + event("a", 1, "fault_start") + ",\n" + event("b", 2, "fault_start", "NIC") + ",\n" +
                           event("a", 3, "fault_start", "Fan") + ",\n" + event("a", 4, "fault_end") + ",\n" +
                           event("b", 5, "fault_end", "NIC") + ",\n" + event("a", 6, "fault_end", "Fan") + "\n]";
  const FaultEventTrace t = parse_fault_event_trace(text, "t.json");
  REQUIRE(t.faults.size() == 3);
  CHECK(t.nodes == std::vector<std::string>{"a", "b"});
  CHECK(t.faults[0].start_s == 86400);
  CHECK(t.faults[0].end_s == 4 * 86400);
  CHECK(t.faults[0].start_line == 2);
  CHECK(t.faults[0].end_line == 8);
  CHECK(t.faults[1].node == 1);
  CHECK(t.faults[2].cls == "Fan");
  CHECK(t.faults[2].end_s == 6 * 86400);
  CHECK(t.last_event_s == 6 * 86400);
  CHECK(fault_class_of(t.faults[0]) == FaultClass::Gpu);
  CHECK(fault_class_of(t.faults[1]) == FaultClass::Nic);
  CHECK(fault_class_of(t.faults[2]) == FaultClass::Host);
}

TEST_CASE("fault event trace: classes from level, class and description", "[fault_model]")
{
  TraceFault f;
  f.level = "Hardware Failure";
  f.cls   = "GPU";
  f.desc  = "GPU DBE(Double Bit ECC) > Threshold";
  CHECK(fault_class_of(f) == FaultClass::Hbm);
  f.cls = "Parameter Plane Cable";
  CHECK(fault_class_of(f) == FaultClass::Switch);
  f.level = "Software Failure";
  CHECK(fault_class_of(f) == FaultClass::Software);
  f.level = "Other Failure";
  CHECK(fault_class_of(f) == FaultClass::Other);
}

TEST_CASE("fault event trace: errors name the line of the event", "[fault_model]")
{
  const auto fails = [](const std::string& text) {
    try {
      parse_fault_event_trace(text, "t.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(fails("[\n" + event("a", 1, "fault_end") + "\n]"),
             Catch::Contains("t.json:2") && Catch::Contains("no open fault_start"));
  CHECK_THAT(fails("[\n" + event("a", 1, "fault_start") + ",\n" + event("a", 2, "fault_start", "NIC") + ",\n" +
                   event("a", 3, "fault_end", "NIC") + "\n]"),
             Catch::Contains("t.json:2") && Catch::Contains("never ends"));
  CHECK_THAT(fails("[\n" + event("a", 1, "fault_begin") + "\n]"),
             Catch::Contains("t.json:2") && Catch::Contains("fault_start or fault_end"));
  CHECK_THAT(fails("[\n" + event("a", -1, "fault_start") + "\n]"), Catch::Contains("'event_time'"));
  CHECK_THAT(fails("[\n" + event("a", 2, "fault_start") + ",\n" + event("a", 1, "fault_end") + "\n]"),
             Catch::Contains("t.json:4") && Catch::Contains("before its fault_start (line 2)"));
  CHECK_THAT(fails("[\n{\"node_id\": 3}\n]"), Catch::Contains("t.json:2") && Catch::Contains("'node_id'"));
  CHECK_THAT(fails("{}"), Catch::Contains("t.json:1") && Catch::Contains("JSON array"));
  CHECK_THAT(fails("[\n{\"node_id\": \n"), Catch::Contains("t.json:") && Catch::Contains("not JSON"));
  CHECK_THAT(fails("[1e999]"), Catch::Contains("beyond the range of a double"));
}

TEST_CASE("json text: the line each array element starts on", "[fault_model]")
{
  CHECK(array_item_lines("[\n {\"a\": \"[,]\"},\n \"x\\\"]\",\n\n 3]") == std::vector<size_t>{2, 3, 5});
  CHECK(array_item_lines("[]").empty());
  CHECK(array_item_lines("{\"a\": [1, 2]}").empty());
  CHECK(line_at("a\nb\nc", 2) == 2);
}
