#include "sim/train/data_loader.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/file_stream.hpp"

#include <algorithm>
#include <cmath>

namespace llsim {

// The streams of one batch. It keeps itself alive until every stream has reported, since a
// dropped batch's streams report after the loader let go of it.
struct DataLoader::BatchRead {
  std::vector<std::shared_ptr<FileStream>> streams;
  std::shared_ptr<BatchRead> self;
  size_t left = 0, reports = 0;
  bool dropped = false;
  std::function<void()> complete;

  void report(const IoOutcome& o)
  {
    std::shared_ptr<BatchRead> keep = self;  // the last report releases it
    if (++reports == streams.size())
      self.reset();
    if (!o.ok() && o.status != IoStatus::ClientDown && o.status != IoStatus::Removed)
      throw SimulationError("a training data read failed: " + o.message);
    if (o.ok() && !dropped && --left == 0)
      complete();
  }
  void drop()
  {
    dropped        = true;
    const auto all = streams;  // a stop may report at once and release this read
    for (const auto& s : all)
      s->stop();
  }
};

DataLoader::DataLoader(DataSpec spec)
    : s_(std::move(spec))
    , wake_(std::make_unique<WaitPoint>())
{
  for (const FileId f : s_.storage->file_set(s_.dataset)) {
    const double b = s_.storage->file_B(f);
    if (b > 0)
      files_.emplace_back(f, b);
    dataset_B_ += b;
  }
  if (dataset_B_ < s_.batch_B)
    throw SimulationError("the training dataset '" + s_.dataset + "' on '" + s_.storage->name() + "' holds " +
                          format_bytes(dataset_B_) + ", less than one batch (" + format_bytes(s_.batch_B) +
                          "): did the phase that writes it run first, and write it there?");
}

DataLoader::~DataLoader()
{
  if (reading_)
    reading_->drop();
}

bool DataLoader::wait(int64_t iteration, double deadline)
{
  if (iteration < wanted_ || iteration > next_) {  // a rollback, or a job that skipped ahead
    drop();
    next_ = ready_ = iteration;
  }
  wanted_ = iteration;
  fill();
  return wake_->wait_until([this, iteration] { return ready_ > iteration; }, deadline);
}

void DataLoader::done(int64_t iteration)
{
  wanted_ = iteration + 1;
  fill();
}

void DataLoader::drop()
{
  if (reading_) {
    busy_s_ += now() - read_start_s_;
    reading_->drop();
    reading_.reset();
  }
  next_ = ready_ = wanted_;
}

void DataLoader::fill()
{
  if (reading_ || next_ > wanted_ + s_.prefetch || next_ >= s_.batches)
    return;
  const int64_t batch = next_;
  auto read           = std::make_shared<BatchRead>();
  read->self          = read;
  read->complete      = [this, batch] { finished(batch); };
  const double slice  = s_.batch_B / static_cast<double>(s_.readers.size());
  double at           = std::fmod(static_cast<double>(batch) * s_.batch_B, dataset_B_);
  for (const HostId reader : s_.readers) {
    // The reader's slice, file by file (wrapping to the first file at the dataset's end).
    size_t f      = 0;
    double offset = at;
    while (offset >= files_[f].second) {
      offset -= files_[f].second;
      f = (f + 1) % files_.size();
    }
    for (double left = slice; left > 0; f = (f + 1) % files_.size(), offset = 0) {
      const double bytes = std::min(left, files_[f].second - offset);
      FileStream::Setup setup;
      setup.op        = IoOp::Read;
      setup.client    = reader;
      setup.file      = files_[f].first;
      setup.offset    = offset;
      setup.bytes     = bytes;
      setup.chunk_B   = s_.sample_B;
      setup.in_flight = s_.in_flight;
      setup.moved     = [this, raw = read.get()](double b) {
        if (!raw->dropped)
          bytes_ += b;
      };
      setup.over = [raw = read.get()](const IoOutcome& o) { raw->report(o); };
      read->streams.push_back(FileStream::create(*s_.storage, std::move(setup)));
      left -= bytes;
    }
    at = std::fmod(at + slice, dataset_B_);
  }
  read->left    = read->streams.size();
  reading_      = read;
  read_start_s_ = now();
  next_ += 1;
  const auto streams = read->streams;  // a stream may end at once and release the read
  for (const auto& s : streams)
    s->start();
}

void DataLoader::finished(int64_t batch)
{
  busy_s_ += now() - read_start_s_;
  reading_.reset();
  ready_ = batch + 1;
  wake_->notify_all();
  fill();
}

}  // namespace llsim
