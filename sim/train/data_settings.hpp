// The train phase's `data` section, the training data path (data_loader.hpp):
//   data: {storage: pfs, dataset: dedup/output, tokens_per_iteration: 16e6, bytes_per_token: 4B,
//          sample: 1MiB, prefetch: 2, readers: 0, in_flight: 4}
// The dataset is a file set on `storage`: a preprocess phase's output (<phase>/output) or files
// declared on the service (`files:`). An iteration's batch is tokens_per_iteration x
// bytes_per_token bytes.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/platform_spec.hpp"
#include "sim/train/data_loader.hpp"

#include <optional>

namespace llsim {

class ServiceDirectory;

const ParamTable& data_params();
// The phase's data path, or nothing without a `data` section. `data_parallel` is the default
// number of readers (one per data-parallel replica), spread evenly over `nodes`.
std::optional<DataSpec> read_data_settings(const Params& phase, ServiceDirectory& services, const GroupSpec& nodes,
                                           int64_t data_parallel);

}  // namespace llsim
