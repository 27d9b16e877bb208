// The drive catalogue: `disks: {preset: NAME}`. No vendor datasheet could be read here: each
// figure is the vendor's published specification as a named report quotes it, most of them a
// product line's "up to" figures rather than one capacity's. Conventions:
//   read, write            sequential bandwidth (128 KiB transfers)
//   read_iops, write_iops  random 4 KiB operations per second at the vendor's rated queue depth;
//                          absent where no figure was found (then no limit but the others)
//   latency                the typical read latency at queue depth 1 (llsim has one latency per
//                          disk; flash writes land in the drive's buffer and are quoted lower);
//                          absent where no figure was found (then 0, and parallelism 1)
//   parallelism            derived, not published: read IOPS x read latency, the requests in
//                          flight a drive needs to reach its rated IOPS at its QD1 latency (Little's
//                          law), rounded; for a hard disk, its actuators
//   capacity               one capacity point of the line
#include "sim/platform/disk_spec.hpp"

#include <utility>

namespace llsim {

namespace {

std::vector<CataloguePreset> flash_drives()
{
  return {
      // Micron 7450 PRO (PCIe 4.0, U.3): 6.8 GB/s read and 5.6 GB/s write (line maxima, PRO and MAX
      // together), latency 80 us read (ComputerBase, 2023-10, "Micron 7500"); up to 1M random read
      // IOPS (techunwrapped, "15TB at 6.8GB/s"). Random write: no figure found.
      {"micron-7450-pro-7.68tb",
       "Micron 7450 PRO 7.68 TB, PCIe 4.0 NVMe",
       {{"read", "6.8GBps"},
        {"write", "5.6GBps"},
        {"read_iops", "1M/s"},
        {"latency", "80us"},
        {"parallelism", "80"},
        {"capacity", "7.68TB"}}},
      // Micron 9550 (PCIe 5.0): 14 GB/s read and 10 GB/s write, up to 3.3M random read IOPS, typical
      // read latency 60 us (the line's specification table in StorageReview's "Micron 9550 MAX
      // review", 2025). The PRO's random write IOPS: no figure found.
      {"micron-9550-pro-7.68tb",
       "Micron 9550 PRO 7.68 TB, PCIe 5.0 NVMe",
       {{"read", "14GBps"},
        {"write", "10GBps"},
        {"read_iops", "3.3M/s"},
        {"latency", "60us"},
        {"parallelism", "198"},
        {"capacity", "7.68TB"}}},
      // Micron 9400 (PCIe 4.0): 7 GB/s read and write in every capacity, up to 1.6M random read IOPS
      // (ComputerBase, 2023-01, "Micron 9400 SSD"); its 940k random write IOPS are the line's, likely
      // the MAX's, so none is set for the PRO. No latency figure was found: none is set, and without
      // it one request at a time (parallelism 1) reaches the bandwidth and the IOPS.
      {"micron-9400-pro-7.68tb",
       "Micron 9400 PRO 7.68 TB, PCIe 4.0 NVMe",
       {{"read", "7GBps"},
        {"write", "7GBps"},
        {"read_iops", "1.6M/s"},
        {"write_iops", "940k/s"},
        {"capacity", "7.68TB"}}},
      // Kioxia CM6-R 30.72 TB (PCIe 4.0 x4, U.3): 6.9 GB/s read, 4.2 GB/s write, 1.4M random read
      // and 170k random write IOPS (heise, 2020-02, "Kioxia bringt PCIe-4.0-SSDs"); 90 us read
      // latency (Kioxia's comparison slide, ComputerBase, 2021-09).
      {"kioxia-cm6-r-30.72tb",
       "Kioxia CM6-R 30.72 TB, PCIe 4.0 NVMe",
       {{"read", "6.9GBps"},
        {"write", "4.2GBps"},
        {"read_iops", "1.4M/s"},
        {"write_iops", "170k/s"},
        {"latency", "90us"},
        {"parallelism", "126"},
        {"capacity", "30.72TB"}}},
      // Micron 9200 PRO (PCIe 3.0, U.2) datasheet: sequential 128 KB up to 3.50 GB/s read and write,
      // random 4 KB up to 840K read and 285K write IOPS, QD1 typical latency 92-150 us read
      // (the lower end here), 21 us write.
      {"micron-9200-pro-7.68tb",
       "Micron 9200 PRO 7.68 TB, PCIe 3.0 NVMe",
       {{"read", "3.5GBps"},
        {"write", "3.5GBps"},
        {"read_iops", "840k/s"},
        {"write_iops", "285k/s"},
        {"latency", "92us"},
        {"parallelism", "77"},
        {"capacity", "7.68TB"}}},
      // Intel SSD DC P4500 4.0 TB (PCIe 3.0 x4), Lenovo's product guide: 3.2 GB/s read, 1.8 GB/s
      // write, 645,000 random read and 62,500 random write IOPS, random read latency 115 us.
      {"intel-p4500-4tb",
       "Intel DC P4500 4 TB, PCIe 3.0 NVMe",
       {{"read", "3.2GBps"},
        {"write", "1.8GBps"},
        {"read_iops", "645k/s"},
        {"write_iops", "62.5k/s"},
        {"latency", "115us"},
        {"parallelism", "74"},
        {"capacity", "4TB"}}},
  };
}

std::vector<CataloguePreset> hard_disks()
{
  return {
      // Seagate Exos 2X18 (SATA, two actuators; Tom's Hardware, 2021, "Seagate launches 2nd gen
      // dual-actuator HDDs"): 554 MB/s sustained, 304 random read and 560 random write IOPS
      // (4 KiB, QD16), average latency 4.16 ms. Parallelism: its two actuators.
      {"seagate-exos-2x18-18tb",
       "Seagate Exos 2X18 18 TB, dual-actuator SATA hard disk",
       {{"read", "554MBps"},
        {"write", "554MBps"},
        {"read_iops", "304/s"},
        {"write_iops", "560/s"},
        {"latency", "4.16ms"},
        {"parallelism", "2"},
        {"capacity", "18TB"}}},
  };
}

}  // namespace

const std::vector<CataloguePreset>& disk_presets()
{
  static const std::vector<CataloguePreset> presets = [] {
    std::vector<CataloguePreset> all = flash_drives();
    for (CataloguePreset& p : hard_disks())
      all.push_back(std::move(p));
    return all;
  }();
  return presets;
}

}  // namespace llsim
