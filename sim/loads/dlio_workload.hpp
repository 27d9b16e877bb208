// What a DLIO training-read workload is (MLPerf Storage's training benchmark), as the `dlio`
// phase kind reads it: a preset of MLPerf Storage v1.0 (unet3d, resnet50, cosmoflow on emulated
// A100 or H100 accelerators), any of whose figures the phase's keys override.
#pragma once
#include "sim/core/params.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace llsim {

// How a rank's loader threads share the reads: a PyTorch DataLoader worker reads whole batches;
// TensorFlow's and DALI's readers take samples one by one.
enum class DlioLoader { PyTorch, TensorFlow };

struct DlioWorkload {
  std::string name;
  DlioLoader loader        = DlioLoader::PyTorch;
  bool streamed            = false;  // tfrecord: a thread reads a file's records as one stream
  int64_t files            = 0;      // num_files_train
  int64_t samples_per_file = 1;
  double record_B          = 0;   // mean bytes of one sample (record_length)
  double record_stdev_B    = 0;   // spread of the files' sample sizes (record_length_stdev)
  int64_t batch_size       = 1;   // samples per step of one accelerator
  int64_t read_threads     = 1;   // reads one accelerator's loader has in flight
  int64_t prefetch         = -1;  // batches each read thread reads ahead (PyTorch's prefetch_factor);
                                  // -1: DLIO's default, dlio_prefetch_factor(2, read_threads)
  double computation_s = 0;       // emulated compute per step
  int64_t epochs       = 1;
  double au_threshold  = 0.9;  // the least AU a valid result keeps
};

// The batches each of `read_threads` threads prefetches for DLIO's reader.prefetch_size, as DLIO
// sets PyTorch's prefetch_factor: ceil(prefetch_size / read_threads), or 2 when it is 0.
int64_t dlio_prefetch_factor(int64_t prefetch_size, int64_t read_threads);
const std::vector<DlioWorkload>& dlio_presets();
// The phase's workload keys (workload, then the figures that override its preset).
const ParamTable& dlio_workload_params();
DlioWorkload dlio_workload(const Params& p);

}  // namespace llsim
