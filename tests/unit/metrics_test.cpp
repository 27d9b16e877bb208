// Metric declarations (sim/core/metrics.hpp): the catalogue, the check of written metrics against
// their kind's table, the listing `llsim models` prints, and the formatting by unit.
#include "sim/cli/metrics_listing.hpp"
#include "sim/cli/summary_table.hpp"
#include "sim/core/metrics.hpp"
#include "sim/core/registry.hpp"
#include "sim/phase/phase.hpp"
#include "sim/phase/work_units.hpp"
#include "sim/svc/service.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>

using namespace llsim;

namespace {

struct Gadget {
  static constexpr const char* kInterfaceName = "gadget";
};

const MetricTable kGearMetrics = {
    {"teeth", MetricUnit::Count, "teeth of the gear"},
    {"spin_s", MetricUnit::Seconds, "time to turn once"},
    {"load_bytes", MetricUnit::Bytes, "what it carries | in bytes"},
};

}  // namespace

namespace llsim {
LLSIM_DECLARE_METRICS(Gadget, "gear", kGearMetrics);
}  // namespace llsim

namespace {

bool ends_with(const std::string& s, const std::string& suffix)
{
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> kinds_of(const std::string& family)
{
  for (const auto& interface : RegistryCatalog::interfaces())
    if (interface.name == family) {
      std::vector<std::string> out;
      for (const auto& model : interface.models())
        out.push_back(model.name);
      return out;
    }
  return {};
}

}  // namespace

TEST_CASE("a declared table is found by family and kind, in its order, with its file")
{
  const MetricDeclaration* gear = MetricCatalog::find("gadget", "gear");
  REQUIRE(gear != nullptr);
  CHECK(gear->file == "tests/unit/metrics_test.cpp");
  REQUIRE(gear->table.size() == 3);
  CHECK(gear->table[0].name == "teeth");
  CHECK(gear->table[2].name == "load_bytes");
  REQUIRE(gear->find("spin_s") != nullptr);
  CHECK(gear->find("spin_s")->unit == MetricUnit::Seconds);
  CHECK(gear->find("spin") == nullptr);
  CHECK(MetricCatalog::find("gadget", "wheel") == nullptr);
  CHECK(MetricCatalog::find("phase", "gear") == nullptr);
}

TEST_CASE("written metrics are checked against the kind's table")
{
  CHECK(metric_errors("gadget", "gear", {{"teeth", 12}, {"load_bytes", 1e3}}).empty());
  CHECK(metric_errors("gadget", "gear", {}).empty());  // declared but not written is no error here

  const auto undeclared = metric_errors("gadget", "gear", {{"teeth", 12}, {"colour", 3}});
  REQUIRE(undeclared.size() == 1);
  CHECK(undeclared[0] ==
        "gadget 'gear' wrote metric 'colour', which its table in tests/unit/metrics_test.cpp does not declare");

  const auto twice = metric_errors("gadget", "gear", {{"teeth", 12}, {"teeth", 13}});
  REQUIRE(twice.size() == 1);
  CHECK(twice[0].find("wrote metric 'teeth' twice") != std::string::npos);

  const auto no_table = metric_errors("gadget", "wheel", {{"spokes", 8}});
  REQUIRE(no_table.size() == 1);
  CHECK(no_table[0].find("gadget 'wheel' wrote metric 'spokes' but declares no metrics") != std::string::npos);
  CHECK(no_table[0].find("LLSIM_DECLARE_METRICS") != std::string::npos);
  CHECK(metric_errors("gadget", "wheel", {}).empty());
}

TEST_CASE("every phase kind and service kind declares its metrics, and the catalogue has no error")
{
  CHECK(MetricCatalog::errors().empty());
  for (const char* family : {Phase::kInterfaceName, Service::kInterfaceName}) {
    const auto kinds = kinds_of(family);
    CHECK(!kinds.empty());
    for (const auto& kind : kinds) {
      INFO(family << " '" << kind << "'");
      const MetricDeclaration* declared = MetricCatalog::find(family, kind);
      REQUIRE(declared != nullptr);
      CHECK(!declared->table.empty());
      for (const MetricSpec& m : declared->table) {
        INFO(m.name);
        CHECK(!m.description.empty());
        CHECK(m.description.find('\n') == std::string::npos);
      }
    }
  }
}

TEST_CASE("a metric's name tells its unit, the same in every kind that writes it")
{
  std::map<std::string, MetricUnit> unit_of;
  for (const MetricDeclaration* declared : MetricCatalog::all()) {
    if (declared->family == "gadget")
      continue;
    for (const MetricSpec& m : declared->table) {
      INFO(declared->family << " '" << declared->name << "': " << m.name);
      const auto [it, first] = unit_of.emplace(m.name, m.unit);
      CHECK((first || it->second == m.unit));
      if (ends_with(m.name, "_per_s") || ends_with(m.name, "_rps"))
        CHECK(m.unit == MetricUnit::PerSecond);
      else if (ends_with(m.name, "_s"))
        CHECK(m.unit == MetricUnit::Seconds);
      else if (ends_with(m.name, "_Bps"))
        CHECK(m.unit == MetricUnit::BytesPerSecond);
      else if (m.name.find("bytes") != std::string::npos)
        CHECK(m.unit == MetricUnit::Bytes);
      if (m.unit == MetricUnit::Seconds)
        CHECK(ends_with(m.name, "_s"));
      if (m.unit == MetricUnit::Bytes)
        CHECK(m.name.find("bytes") != std::string::npos);
    }
  }
  CHECK(unit_of.size() > 50);
}

TEST_CASE("every phase and service kind declares the accounting's metrics after its own")
{
  const MetricDeclaration* serve = MetricCatalog::find("phase", "serve");
  REQUIRE(serve != nullptr);
  const MetricTable& t = serve->table;
  REQUIRE(t.size() > 4);
  CHECK(t[t.size() - 4].name == "cost");
  CHECK(t[t.size() - 3].name == "energy_kwh");
  CHECK(t[t.size() - 2].name == "cost_per_M_output_tokens");
  CHECK(t.back().name == "kwh_per_M_output_tokens");
  CHECK(t.back().unit == MetricUnit::KilowattHours);
  const MetricDeclaration* storage = MetricCatalog::find("service", "storage");
  REQUIRE(storage != nullptr);
  CHECK(storage->table.back().name == "energy_kwh");
  CHECK(storage->table[storage->table.size() - 2].unit == MetricUnit::Currency);
}

TEST_CASE("every phase kind's work units divide a metric the kind declares")
{
  size_t kinds = 0;
  for (const MetricDeclaration* d : MetricCatalog::all()) {
    if (d->family != Phase::kInterfaceName)
      continue;
    for (const WorkUnit& u : work_units(d->name)) {
      const MetricSpec* divided = d->find(u.metric);
      INFO(d->name << " divides its cost by " << u.metric);
      REQUIRE(divided != nullptr);
      CHECK(divided->unit != MetricUnit::Currency);
      CHECK(d->find(std::string("cost_per_") + u.name) != nullptr);
    }
    kinds += work_units(d->name).empty() ? 0 : 1;
  }
  CHECK(kinds == 6);  // serve, train, ingest, preprocess, transfer, tasks; requests does no unit of work
}

TEST_CASE("values are written by their declared unit")
{
  CHECK(readable(MetricUnit::Bytes, 1.25e10) == "12.5 GB");
  CHECK(readable(MetricUnit::Seconds, 192) == "3.2 min");
  CHECK(readable(MetricUnit::Seconds, 30) == "30 s");
  CHECK(readable(MetricUnit::BytesPerSecond, 1.2e9) == "1.2 GB/s");
  CHECK(readable(MetricUnit::PerSecond, 788) == "788 /s");
  CHECK(readable(MetricUnit::Count, 202001) == "202001");
  CHECK(readable(MetricUnit::Ratio, 0.123456) == "0.1235");
  CHECK(readable(MetricUnit::Flop, 3e12) == "3000000000000");
  CHECK(readable(MetricUnit::Number, 1.808) == "1.808");
  CHECK(readable(MetricUnit::KilowattHours, 2.5) == "2.5 kWh");
  CHECK(readable(MetricUnit::Currency, 120.25) == "120.2");
  CHECK(readable(MetricUnit::Seconds, NAN) == "n/a");
  CHECK(readable(MetricUnit::Bytes, INFINITY) == "inf");
  CHECK(readable_metric("gadget", "gear", "spin_s", 30) == "30 s");
  CHECK(readable_metric("gadget", "gear", "load_bytes", 2000) == "2 kB");
  CHECK(readable_metric("gadget", "gear", "undeclared_bytes", 2000) == "2000");  // no unit: a number
  CHECK(readable_metric(Phase::kInterfaceName, "transfer", "throughput_Bps", 2e9) == "2 GB/s");
  // The sweep report's metrics carry no kind: a declared name's unit, else one guessed from the name.
  CHECK(readable("phases.probe.throughput_ops", 4998) == "5 k/s");
  CHECK(readable("services.pfs.bytes_written", 3e12) == "3 TB");
  CHECK(readable("simulated_time_s", 30) == "30 s");
  CHECK(readable("phases.x.unknown_count", 2.5) == "2.5");
}

TEST_CASE("llsim models lists a kind's metrics as text and as Markdown")
{
  CHECK(metrics_listing("gadget", "gear", false) == "    metrics (declared in tests/unit/metrics_test.cpp):\n"
                                                    "      teeth  (count)\n"
                                                    "          teeth of the gear\n"
                                                    "      spin_s  (s)\n"
                                                    "          time to turn once\n"
                                                    "      load_bytes  (B)\n"
                                                    "          what it carries | in bytes\n");
  CHECK(metrics_listing("gadget", "gear", true) == "Metrics (declared in `tests/unit/metrics_test.cpp`):\n\n"
                                                   "| metric | unit | description |\n"
                                                   "|---|---|---|\n"
                                                   "| `teeth` | count | teeth of the gear |\n"
                                                   "| `spin_s` | s | time to turn once |\n"
                                                   "| `load_bytes` | B | what it carries \\| in bytes |\n\n");
  CHECK(metrics_listing("gadget", "wheel", false).empty());
  CHECK(std::string(metric_unit_name(MetricUnit::PerSecond)) == "1/s");
  CHECK(std::string(metric_unit_name(MetricUnit::Flop)) == "FLOP");
}
