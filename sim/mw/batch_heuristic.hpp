// The MinMin / MaxMin family over an ETC matrix: repeatedly take, for every unassigned task, its
// best (minimum) completion time over the eligible workers, assign the task whose best is the
// smallest (MinMin) or the largest (MaxMin) to that worker, update the worker's ready time,
// and repeat. Ties go to the lower task index, then the lower worker index.
#pragma once
#include "sim/mw/task_scheduler.hpp"

namespace llsim {

enum class BatchRule { MinMin, MaxMin };

// `only_free`: only workers that are free now are eligible, each for one task (late binding);
// otherwise every worker is eligible and gets tasks queued (early binding of the whole batch).
std::vector<Assignment> batch_schedule(const std::vector<SchedTask>& tasks, const std::vector<SchedWorker>& workers,
                                       double now, BatchRule rule, bool only_free);

}  // namespace llsim
