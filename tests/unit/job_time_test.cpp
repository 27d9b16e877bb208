#include "sim/train/job_time.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

TrainingResult job()
{
  TrainingResult r;
  r.useful_s        = 1000;
  r.compute_s       = 1100;  // 100 s redone after a failure
  r.blocking_s      = 300;
  r.restarting_s    = 250;  // 200 s of delay, 50 s reading the checkpoint back
  r.recovery_read_s = 50;
  r.data_stall_s    = 40;
  r.data_warmup_s   = 10;
  r.makespan_s      = 1000 + 100 + 300 + 250 + 40 + 10;
  return r;
}

}  // namespace

TEST_CASE("job time: the parts add up to the makespan, I/O waits divided as the I/O was charged", "[train]")
{
  const auto t = job_time(job(), {{"pfs disk queue", 3000}, {"network: NIC", 1000}});
  CHECK(t.at("compute") == 1000);
  CHECK(t.at("work lost to failures") == 100);
  CHECK(t.at("restart delays and host waits") == 200);
  CHECK(t.at("pfs disk queue") == Approx(0.75 * 400));  // blocking + reading back + stalls + warm-ups
  CHECK(t.at("network: NIC") == Approx(0.25 * 400));
  double total = 0;
  for (const auto& [resource, seconds] : t)
    total += seconds;
  CHECK(total == Approx(job().makespan_s));
}

TEST_CASE("job time: without any I/O run through the services its waits are one part; empty parts are left out",
          "[train]")
{
  TrainingResult r = job();
  r.compute_s      = r.useful_s;
  r.maintenance_s  = 0;
  const auto t     = job_time(r, {});
  CHECK(t.at("I/O (none run through the services)") == 400);
  CHECK(t.count("work lost to failures") == 0);
  CHECK(t.count("maintenance") == 0);
}
