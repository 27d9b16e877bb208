// The training data path: each iteration's global batch read from a dataset on a storage service
// (the files a preprocess phase wrote, or a file set declared on the service), `prefetch`
// iterations ahead of the one computing, as a framework's data loader does.
//
// - The dataset's files, in name order, are one byte sequence the job reads through in order,
//   epoch after epoch: iteration i reads bytes [i x batch, (i + 1) x batch) modulo its size.
// - A batch is split evenly over the `readers` (hosts of the job, one slice each), each reading
//   its slice's files sequentially in requests of `sample` bytes, `in_flight` of them at once
//   (file_stream.hpp). Batches are read one after another: batch i + 1 starts when batch i is
//   there, as long as it is at most `prefetch` iterations ahead of the iteration the job needs.
//   With prefetch 0 a batch is read only when its iteration asks for it.
// - A failure of the job or a maintenance stop drops what is read and on its way; the restarted
//   job reads again from the iteration it restarts at.
// Bytes and the time at least one batch was being read give the achieved read bandwidth.
#pragma once
#include "sim/svc/storage.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace llsim {

class WaitPoint;

struct DataSpec {
  StorageService* storage = nullptr;
  std::string dataset;     // file set on `storage`
  double batch_B   = 0;    // bytes of one iteration's global batch
  double sample_B  = 1e6;  // one read request
  int64_t prefetch = 2;    // batches read ahead of the iteration the job needs
  std::vector<HostId> readers;
  size_t in_flight = 4;                                    // requests each reader keeps on their way
  int64_t batches  = std::numeric_limits<int64_t>::max();  // the job's iterations: none read beyond
};

class DataLoader {
 public:
  // The dataset's files are looked up now: a missing or empty set, or one smaller than a batch,
  // is a SimulationError naming it.
  explicit DataLoader(DataSpec spec);
  ~DataLoader();

  // Waits until the batch of `iteration` is read, or until `deadline`; false at the deadline.
  bool wait(int64_t iteration, double deadline);
  void done(int64_t iteration);  // the iteration is computed: the loader may read further ahead
  void drop();                   // the job failed: reads in progress and batches read are lost

  double bytes() const { return bytes_; }
  double busy_s() const { return busy_s_; }

 private:
  struct BatchRead;
  void fill();  // starts the next batch when none is being read and it is not too far ahead
  void finished(int64_t batch);

  DataSpec s_;
  std::vector<std::pair<FileId, double>> files_;  // (file, bytes) in name order
  double dataset_B_ = 0;
  int64_t wanted_   = 0;  // the iteration the job needs next
  int64_t next_     = 0;  // the next batch to read
  int64_t ready_    = 0;  // batches [wanted_, ready_) are read
  std::shared_ptr<BatchRead> reading_;
  double read_start_s_ = 0;
  double bytes_ = 0, busy_s_ = 0;
  std::unique_ptr<WaitPoint> wake_;
};

}  // namespace llsim
