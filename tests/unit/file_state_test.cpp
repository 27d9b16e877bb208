#include "sim/core/registry.hpp"
#include "sim/train/interfaces.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::unique_ptr<FileStatePolicy> make(const std::string& impl)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "f.yaml";
  return Registry<FileStatePolicy>::create(YamlRef(YAML::Load("{impl: " + impl + "}"), "file_state", source), {});
}

// 100 files of 1 GB, half never written; of the written bytes 80% appended, 20% overwritten.
FileWorkload workload()
{
  FileWorkload f;
  f.count           = 100;
  f.size_B          = 1e9;
  f.write_Bps       = 1e6;
  f.append_share    = 0.8;
  f.overwrite_share = 0.2;
  f.read_only_share = 0.5;
  f.block_B         = 4096;
  return f;
}

}  // namespace

TEST_CASE("file-state policies: bytes saved per checkpoint", "[train]")
{
  const FileWorkload f   = workload();
  const double written_B = 10e6 + 100;  // not a whole number of blocks
  const double blocks_B  = std::ceil(written_B / 4096) * 4096;
  CHECK(make("none")->saved_bytes(f, written_B) == 0);
  CHECK(make("none")->inconsistent_on_rollback());
  CHECK(make("full_copy")->saved_bytes(f, written_B) == 100e9);
  CHECK(make("block_log")->saved_bytes(f, written_B) == blocks_B);
  // Capped by the files that are ever written.
  CHECK(make("block_log")->saved_bytes(f, 1e12) == 50e9);
  // 50 written files x 8 B of offsets + the overwritten bytes' blocks.
  CHECK(make("behavior")->saved_bytes(f, written_B) == 50 * 8 + std::ceil(0.2 * written_B / 4096) * 4096);
  const auto versioned = make("versioned");
  CHECK(versioned->saved_bytes(f, written_B) == 0);
  CHECK(versioned->kept_bytes(f, written_B) == written_B);
  CHECK_FALSE(versioned->inconsistent_on_rollback());
}
