// The disks of one host group, `platform.groups.<name>.disks`, figures per disk, either typed
// out or taken from the drive catalogue (sim/platform/disk_presets.cpp, listed by `llsim models`):
//
//   disks: {count: 8, read: 3GBps, write: 2GBps, capacity: 15.36TB}
//   disks: {count: 8, preset: micron-7450-pro-7.68tb}          any figure of the preset overridden
//
// How a disk serves requests (sim/svc/disk_worker.hpp): up to `parallelism` at once (an NVMe
// drive's queues; a hard disk's one head); each waits `latency` for its access, all of them
// overlapped; their bytes cross the media one request after another at the read or write
// bandwidth; and requests start at most `read_iops` / `write_iops` per second.
#pragma once
#include "sim/core/params.hpp"
#include "sim/platform/catalogue_preset.hpp"

#include <cstdint>
#include <vector>

namespace llsim {

struct DiskSpec {
  int64_t count       = 1;
  double read_Bps     = 0;
  double write_Bps    = 0;
  double capacity_B   = 0;  // per disk
  double latency_s    = 0;  // per I/O, before its bytes move
  int64_t parallelism = 1;  // requests served at once
  double read_iops    = 0;  // 0: no limit but latency and bandwidth
  double write_iops   = 0;
};

// The drive catalogue, each figure's source in disk_presets.cpp.
const std::vector<CataloguePreset>& disk_presets();
const ParamTable& disk_params();
DiskSpec parse_disks(const Params& p);

}  // namespace llsim
