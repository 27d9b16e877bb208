#include "sim/serve/weights/load_tally.hpp"
#include "sim/svc/files/file_names.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using llsim::FileNames;
using llsim::LoadTally;
using llsim::shard_name;

TEST_CASE("a file set is the file named its path and those under it, in name order", "[file_names]")
{
  FileNames names;
  names.set(shard_name("models/m", 2, 3), 12);
  names.set(shard_name("models/m", 1, 3), 11);
  names.set("models/m2/model.safetensors", 99);  // another set whose name starts the same
  names.set("models/m", 10);
  CHECK(names.under("models/m") == std::vector<size_t>{10, 11, 12});
  CHECK(names.under("models/m2") == std::vector<size_t>{99});
  CHECK(names.under("models") == std::vector<size_t>{10, 11, 12, 99});
  CHECK(names.under("model").empty());  // a name that only starts like theirs
  CHECK(*names.find("models/m") == 10);
  CHECK(names.find("models/x") == nullptr);
}

TEST_CASE("a file set is known once it has files or a phase promised it", "[file_names]")
{
  FileNames names;
  CHECK_FALSE(names.known("train/checkpoint"));
  names.promise("train/checkpoint");
  CHECK(names.known("train/checkpoint"));
  names.set(FileNames::local_name(3, "w/model.bin"), 1);
  CHECK(names.known(FileNames::local_name(3, "w")));
  CHECK_FALSE(names.known("w"));  // a server's own copy is in that server's names only
  CHECK_FALSE(names.known(FileNames::local_name(2, "w")));
}

TEST_CASE("shard files are named as Hugging Face splits a checkpoint", "[file_names]")
{
  CHECK(shard_name("m", 1, 30) == "m/model-00001-of-00030.safetensors");
  CHECK(shard_name("m", 30, 30) == "m/model-00030-of-00030.safetensors");
  CHECK(shard_name("m", 1, 1) == "m");
}

TEST_CASE("time to serve waits for every instance allocated at the start to complete a load", "[load_tally]")
{
  LoadTally t;
  const size_t a = t.started(0, 10, true);
  const size_t b = t.started(1, 10, true);
  t.interrupted(b, 12, "pfs");
  const size_t c = t.started(1, 20, true);  // after its host came back: still its first load
  t.completed(a, 15, 100, "pfs");
  t.completed(c, 30, 100, "pfs");
  const size_t d = t.started(0, 40, false);  // a reload after a failure does not move it
  t.completed(d, 60, 100, "nvme (own copy)");
  const size_t e = t.started(2, 50, false);  // a cold start does not either
  t.abandoned(e, 55, "pfs");
  const auto m     = t.metrics(10);
  const auto value = [&](const std::string& key) {
    for (const auto& [k, v] : m)
      if (k == key)
        return v;
    FAIL("no metric " << key);
    return -1.0;
  };
  CHECK(value("time_to_serve_s") == 20);  // instance 1 at 30 s
  CHECK(value("weight_loads") == 3);
  CHECK(value("weight_loads_interrupted") == 1);  // the abandoned one is not
  CHECK(value("weight_bytes_loaded") == 300);
  CHECK(value("mean_weight_load_s") == Approx((5.0 + 10 + 20) / 3));
  CHECK(value("max_weight_load_s") == 20);
  CHECK(t.table().rows.size() == 5);
  CHECK(t.table().rows[1][7] == "interrupted");
  CHECK(t.table().rows[4][7] == "abandoned");
  LoadTally never;
  never.started(0, 0, true);
  for (const auto& [k, v] : never.metrics(0))
    if (k == "time_to_serve_s" || k == "mean_weight_load_s")
      CHECK(std::isnan(v));  // nothing to measure: n/a
}
