// The spare hosts of a training job. A failed host back within `swap_s` (a software fault, a
// reboot) is kept: no spare is taken. Otherwise, when a spare is free, the job goes on with the
// spare after `swap_s` and the failed host, once repaired, becomes a spare. With none free,
// the job waits for the first host back: its own failed host (no swap), or a spare returning from
// repair (then the swap). A failure while the job waits adds a place to fill; the job goes on once
// all are. Unlimited spares (the default): every failure finds one.
// The spare takes the failed host's place in the job, its failures included: the place's fault
// stream goes on from the failed host's repair, so a place cannot fail again while its host is
// being repaired (an undercount of at most repair / MTBF of the failures).
// Pure logic.
#pragma once
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace llsim {

class SparePool {
 public:
  // spares < 0: unlimited.
  SparePool(int64_t spares, double swap_s);

  // A host failed at `now` and is repaired at `repaired_s`: when the job has a full set of hosts
  // again (this place filled, and every place an earlier failure emptied).
  double replace(double now, double repaired_s);
  // Hosts failing at the same instant, each repaired at its time: the longest repairs get the
  // spares first.
  double replace_all(double now, std::vector<double> repaired_s);
  int64_t swaps() const { return swaps_; }  // failed hosts replaced with a spare
  double swap_s() const { return swap_s_; }

 private:
  bool unlimited_;
  int64_t free_;
  double swap_s_;
  int64_t swaps_  = 0;
  double ready_s_ = 0;  // when every place emptied so far is filled
  std::priority_queue<double, std::vector<double>, std::greater<double>> repairing_;  // when each is back
};

}  // namespace llsim
