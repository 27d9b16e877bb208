#include "sim/svc/files/stored_files.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

// 2 servers x 2 disks of 100 B: targets 0 and 2 on server 0, 1 and 3 on server 1.
const TargetGrid kGrid{2, 2, 100};

}  // namespace

TEST_CASE("stored files: round-robin allocation, a file over every target shifting the start by one", "[stored_files]")
{
  StoredFiles files(kGrid, 1, 10);
  CHECK(files.layout(files.new_file(-1)).first == 0);
  CHECK(files.layout(files.new_file(2)).first == 1);  // after the previous one's stripe
  const StripeLayout all = files.layout(files.new_file(0));
  CHECK(all.first == 3);
  CHECK(all.count == 4);
  CHECK(files.layout(files.new_file(0)).first == 0);  // one further: (3 + 1) mod 4
  const StripeLayout local = files.layout(files.new_local_file(1));
  CHECK((local.first == 1 && local.count == 2 && local.stride == 2));
}

TEST_CASE("stored files: capacity per target, removed files, names and the bytes over time", "[stored_files]")
{
  StoredFiles files(kGrid, 0, 10);
  const FileId object = files.new_object();
  CHECK(files.take(object, 3, 60, 0) == StoredFiles::Take::Taken);
  CHECK(files.take(object, 3, 50, 1) == StoredFiles::Take::Full);  // 110 B > 100 B: nothing counted
  CHECK(files.used(3) == 60);
  CHECK(files.take(object, 1, 20, 2) == StoredFiles::Take::Taken);
  CHECK(files.file_B(object) == 80);
  const auto parts = files.parts(object, 0, 40);  // an object's slice spreads as its bytes do
  REQUIRE(parts.size() == 2);
  CHECK((parts[0] == std::pair<size_t, double>{1, 10} && parts[1] == std::pair<size_t, double>{3, 30}));
  files.names().set("ckpt/0", object);
  CHECK(*files.named("ckpt/0") == object);
  CHECK(files.set_B("ckpt") == 80);
  files.give_back(object, 1, 20, 3);
  files.remove(object, 4);
  CHECK(files.named("ckpt/0") == nullptr);
  CHECK(files.stored_B() == 0);
  CHECK(files.take(object, 0, 1, 5) == StoredFiles::Take::Removed);
  // 60 B from 0 s, 80 B from 2 s, 60 B from 3 s, none from 4 s.
  CHECK(files.stored_byte_seconds(10) == 60 * 2 + 80 + 60);
}
