// Reads a DLIO workload configuration as DLIO and MLPerf Storage write it (the YAML a `dlio`
// phase names with `config:`), so a user brings their own file unchanged:
//
//   model: unet3d                       or model: {name: unet3d, ...}
//   framework: pytorch
//   workflow: {generate_data: False, train: True}
//   dataset: {format: npz, num_files_train: 168, num_samples_per_file: 1,
//             record_length: 146600628, record_length_stdev: 68341808}   (or record_length_bytes...)
//   reader: {data_loader: pytorch, batch_size: 7, read_threads: 4, prefetch_size: 0}
//   train: {epochs: 5, computation_time: 0.323}
//   metric: {au: 0.90}
//
// What llsim reads, with DLIO's defaults (dlio_benchmark's utils/config.py) where a key is absent:
//   dataset.format (tfrecord: streamed, a file's records in one read; any other format, each
//   sample read on its own; default tfrecord), num_files_train (8), num_samples_per_file (1),
//   record_length or record_length_bytes (65536), record_length_stdev or
//   record_length_bytes_stdev (0); reader.data_loader (tensorflow; pytorch, dali), batch_size
//   (1), read_threads (1), prefetch_size (2) -> prefetch: ceil(prefetch_size / read_threads)
//   batches per thread, as DLIO's PyTorch loader sets its prefetch_factor (2 when 0);
//   train.epochs (1), computation_time (0 s); metric.au (MLPerf's rule for cosmoflow, 0.7, else
//   DLIO's 0.9). workflow.train: False is an error (nothing to read).
// Other keys (data_folder, checkpoint, output, ...) are DLIO's and change nothing llsim
// models. A malformed file is a ConfigError naming its file, line and column.
#pragma once
#include "sim/loads/dlio_workload.hpp"

#include <string>

namespace llsim {

DlioWorkload read_dlio_config(const std::string& file);

}  // namespace llsim
