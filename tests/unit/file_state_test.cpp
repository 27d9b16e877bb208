#include "sim/core/registry.hpp"
#include "sim/train/file_state.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

std::unique_ptr<FileStatePolicy> make(const std::string& impl)
{
  auto source  = std::make_shared<SourceInfo>();
  source->file = "f.yaml";
  return Registry<FileStatePolicy>::create(YamlRef(YAML::Load("{impl: " + impl + "}"), "file_state", source), {});
}

// 100 files of 1 GB, half never written; of the written bytes 80% appended, the rest overwritten.
FileWorkload workload()
{
  FileWorkload f;
  f.count           = 100;
  f.size_B          = 1e9;
  f.write_Bps       = 1e6;
  f.append_share    = 0.8;
  f.read_only_share = 0.5;
  f.block_B         = 4096;
  return f;
}

}  // namespace

TEST_CASE("file-state policies: bytes saved per checkpoint", "[file_state]")
{
  const FileWorkload f   = workload();
  const double written_B = 10e6 + 100;  // not a whole number of blocks
  CHECK(make("none")->saved_B(f, written_B) == 0);
  CHECK(make("none")->inconsistent_on_rollback());
  CHECK(make("full_copy")->saved_B(f, written_B) == 100e9);
  // Appended bytes as they are, overwritten bytes as whole blocks.
  CHECK(make("block_log")->saved_B(f, written_B) == Approx(0.8 * written_B + std::ceil(0.2 * written_B / 4096) * 4096));
  // Capped by the files that are ever written.
  CHECK(make("block_log")->saved_B(f, 1e12) == 50e9);
  // 50 written files x 8 B of offsets + the overwritten bytes' blocks.
  CHECK(make("behavior")->saved_B(f, written_B) == 50 * 8 + std::ceil(0.2 * written_B / 4096) * 4096);
  const auto versioned = make("versioned");
  CHECK(versioned->saved_B(f, written_B) == 0);
  CHECK(versioned->kept_B(f, written_B) == written_B);
  CHECK_FALSE(versioned->inconsistent_on_rollback());
}

TEST_CASE("file-state policies: the append share decides what block logging and behaviour save", "[file_state]")
{
  FileWorkload f        = workload();
  const double written  = 1000;  // less than a block
  f.append_share        = 1;
  const double appended = make("block_log")->saved_B(f, written);
  const double offsets  = make("behavior")->saved_B(f, written);
  f.append_share        = 0;
  CHECK(appended == 1000);
  CHECK(make("block_log")->saved_B(f, written) == 4096);  // one overwritten block
  CHECK(offsets == 50 * 8);
  CHECK(make("behavior")->saved_B(f, written) == 50 * 8 + 4096);
}
