// The drive catalogue and the disks keys (sim/platform/disk_spec.hpp, disk_presets.cpp): a
// preset's figures, overridden by the keys beside it and written into the section; the explicit
// form with its defaults (one request at a time, no IOPS limit); errors.
#include "sim/core/errors.hpp"
#include "sim/platform/disk_spec.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace llsim;

namespace {

struct Parsed {
  DiskSpec disks;
  YAML::Node node;  // the section after parsing: what resolved.yaml shows
};

Parsed disks(const std::string& text)
{
  auto source      = std::make_shared<SourceInfo>();
  source->file     = "disks.yaml";
  YAML::Node node  = YAML::Load(text);
  const DiskSpec d = parse_disks(Params(YamlRef(node, "disks", source), disk_params()));
  return {d, node};
}

}  // namespace

TEST_CASE("disk spec: a preset's figures, and the keys beside it", "[disk_spec]")
{
  const Parsed cm6 = disks("{preset: kioxia-cm6-r-30.72tb, count: 12}");
  CHECK(cm6.disks.count == 12);
  CHECK(cm6.disks.read_Bps == 6.9e9);
  CHECK(cm6.disks.write_Bps == 4.2e9);
  CHECK(cm6.disks.read_iops == 1.4e6);
  CHECK(cm6.disks.write_iops == 170e3);
  CHECK(cm6.disks.latency_s == Approx(90e-6));
  CHECK(cm6.disks.parallelism == 126);
  CHECK(cm6.disks.capacity_B == 30.72e12);
  CHECK(cm6.node["read_iops"].as<std::string>() == "1.4M/s");  // resolved.yaml shows the figures

  const Parsed slower = disks("{preset: kioxia-cm6-r-30.72tb, read: 3GBps, parallelism: 8}");
  CHECK(slower.disks.read_Bps == 3e9);
  CHECK(slower.disks.parallelism == 8);
  CHECK(slower.disks.write_Bps == 4.2e9);
  CHECK(slower.node["read"].as<std::string>() == "3GBps");
}

TEST_CASE("disk spec: every preset has the figures a disk needs", "[disk_spec]")
{
  for (const CataloguePreset& p : disk_presets()) {
    const Parsed d = disks("{preset: " + p.name + "}");
    CHECK(d.disks.read_Bps > 0);
    CHECK(d.disks.write_Bps > 0);
    CHECK(d.disks.capacity_B > 0);
    // A preset with no published latency claims no parallelism (derived from the latency).
    CHECK((d.disks.latency_s > 0 || d.disks.parallelism == 1));
    CHECK(d.disks.read_iops > 0);
  }
}

TEST_CASE("disk spec: typed out, a disk serves one request at a time with no IOPS limit", "[disk_spec]")
{
  const Parsed d = disks("{count: 4, read: 2GBps, write: 1GBps, capacity: 4TB, latency: 1ms}");
  CHECK(d.disks.count == 4);
  CHECK(d.disks.parallelism == 1);
  CHECK(d.disks.read_iops == 0);
  CHECK(d.disks.write_iops == 0);
  CHECK(d.disks.latency_s == Approx(1e-3));
  CHECK(d.node["read_iops"].as<std::string>() == "0/s");  // resolved.yaml shows the defaults
}

TEST_CASE("disk spec: errors name the key", "[disk_spec]")
{
  CHECK_THROWS_WITH(disks("{preset: pm1733}"), Catch::Contains("disks.preset") && Catch::Contains("unknown drive"));
  CHECK_THROWS_WITH(disks("{read: 1GBps, capacity: 1TB}"), Catch::Contains("disks: missing required key 'write'"));
  CHECK_THROWS_WITH(disks("{preset: intel-p4500-4tb, parallelism: 0}"), Catch::Contains("disks.parallelism"));
  CHECK_THROWS_WITH(disks("{preset: intel-p4500-4tb, read_iops: -1/s}"), Catch::Contains("disks.read_iops"));
}
