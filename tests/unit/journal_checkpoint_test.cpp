#include "sim/core/registry.hpp"
#include "sim/svc/fifo_threads.hpp"
#include "sim/svc/journal_checkpoint.hpp"
#include "sim/svc/metadata_journal.hpp"
#include "world.hpp"

#include <catch2/catch.hpp>

using namespace llsim;

namespace {

JournalSpec spec(const std::string& checkpoint, double every_B, double latency_s)
{
  static test::World w("groups: {a: {count: 1, nic: {bandwidth: 1GBps}}}\nbackbone: {bandwidth: 1GBps}");
  JournalSpec s;
  s.log        = {1e9, 1e9, latency_s};  // 1 GB/s both ways
  s.record_B   = 500;
  s.block_B    = 4000;  // 8 records per block
  s.every_B    = every_B;
  s.checkpoint = Registry<JournalCheckpoint>::create(w.yaml("{impl: " + checkpoint + ", every: 1GB}"), {});
  s.home       = DiskSpec{2, 1e9, 1e9, 1e12, 1e-3};  // two disks, 1 ms per block write
  return s;
}

}  // namespace

TEST_CASE("fifo threads: first come, first served over the earliest free thread", "[journal_checkpoint]")
{
  FifoThreads threads(2);
  CHECK(threads.next_free() == 0);
  threads.occupy(5);  // thread A until 5
  CHECK(threads.next_free() == 0);
  threads.occupy(3);  // thread B until 3
  CHECK(threads.next_free() == 3);
  threads.occupy(4);  // B again
  CHECK(threads.next_free() == 4);
}

TEST_CASE("metadata journal: group commit shares one device latency", "[journal_checkpoint]")
{
  MetadataJournal j(spec("forward", 1e12, 1e-3));
  // The first record finds the device idle: latency + 500 B at 1 GB/s.
  CHECK(j.append(0, 1, 1) == Approx(1e-3 + 500e-9));
  // Two records ready while that write is under way form the next group, which starts when the
  // device frees and pays one latency for both.
  const double second = j.append(0.5e-3, 1, 1);
  const double third  = j.append(0.6e-3, 2, 1);
  CHECK(second == Approx(2e-3 + 1000e-9));
  CHECK(third == Approx(2e-3 + 1500e-9));
  // Much later the device is idle again.
  CHECK(j.append(1.0, 1, 1) == Approx(1.0 + 1e-3 + 500e-9));
  CHECK(j.journal_B() == 2000);
  CHECK(j.home_B() == 0);  // no checkpoint below `every`
}

TEST_CASE("metadata journal: forward writes a block per record, reverse scan one per block", "[journal_checkpoint]")
{
  // 80 records into one directory fill 10 blocks; `every` = 40,000 B is reached at the 80th.
  const std::vector<std::pair<std::string, double>> cases = {{"forward", 80}, {"reverse_scan", 10}};
  for (const auto& [impl, blocks] : cases) {
    MetadataJournal j(spec(impl, 40000, 0));
    for (int i = 0; i < 80; ++i)
      j.append(i * 1e-3, 7, 1);
    CHECK(j.checkpoints() == 1);
    CHECK(j.home_B() == blocks * 4000);
  }
  // Records spread over 80 directories change 80 blocks either way.
  MetadataJournal spread(spec("reverse_scan", 40000, 0));
  for (int i = 0; i < 80; ++i)
    spread.append(i * 1e-3, static_cast<uint64_t>(100 + i), 1);
  CHECK(spread.home_B() == 80 * 4000);
}

TEST_CASE("metadata journal: commits wait when a checkpoint falls behind", "[journal_checkpoint]")
{
  // `every` = 4,000 B (8 records); a forward checkpoint of 8 blocks takes 8 x 1 ms / 2 disks = 4 ms
  // after its scan. Records ready every 10 us fill the next interval long before that.
  MetadataJournal j(spec("forward", 4000, 0));
  double last = 0;
  for (int i = 0; i < 17; ++i)
    last = j.append(i * 1e-5, 1, 1);
  CHECK(last > 4e-3);           // the 17th record waited for the first checkpoint to end,
  CHECK(j.checkpoints() == 2);  // then the second interval's checkpoint started
  // Scale: a record standing for 10 is 10 records' bytes.
  MetadataJournal scaled(spec("forward", 1e12, 0));
  scaled.append(0, 1, 10);
  CHECK(scaled.journal_B() == 5000);
}
