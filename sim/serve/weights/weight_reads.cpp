#include "sim/serve/weights/weight_reads.hpp"

#include "sim/core/errors.hpp"
#include "sim/core/text.hpp"
#include "sim/svc/file_stream.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <vector>

namespace llsim {

namespace {

class StreamLoad : public WeightLoad {
 public:
  StreamLoad(std::string source, std::function<void(bool)> finished)
      : source_(std::move(source))
      , finished_(std::move(finished))
  {}
  bool over() const override { return started_ && left_ == 0 && !cancelled_; }
  void cancel() override
  {
    if (cancelled_ || over())
      return;
    cancelled_ = true;
    finished_(false);
    // The requests on their way end; no more are sent. Stopping may report at once: a copy of
    // the list, as a report can release this load.
    const auto streams = streams_;
    for (const auto& s : streams)
      s->stop();
  }
  const std::string& source() const override { return source_; }

  void add(StorageService& storage, FileStream::Setup s)
  {
    left_ += 1;
    s.over = [this, k = streams_.size()](const IoOutcome& o) { done(k, o); };
    reported_.push_back(false);
    streams_.push_back(FileStream::create(storage, std::move(s)));
  }
  // Starts the streams; keeps the load alive until they are over.
  void start(const std::shared_ptr<StreamLoad>& self)
  {
    started_ = true;
    self_    = self;
    for (auto& s : streams_)
      s->start();
  }

 private:
  // Each stream reports once; the load lives until all have (a cancelled one's streams go on
  // until their requests fail or end).
  void done(size_t stream, const IoOutcome& o)
  {
    if (reported_[stream])  // a stream reports once (a failure, then no more)
      return;
    reported_[stream] = true;
    std::shared_ptr<StreamLoad> last;
    if (++reports_ == streams_.size())
      last.swap(self_);
    // A read from a host that went down fails with it: the instance cancels the load then.
    if (!o.ok() && o.status != IoStatus::ClientDown && !cancelled_)
      throw SimulationError("a weight read failed: " + o.message);
    if (o.ok() && !cancelled_ && --left_ == 0)
      finished_(true);
  }

  std::string source_;
  std::function<void(bool)> finished_;
  std::vector<std::shared_ptr<FileStream>> streams_;
  std::shared_ptr<StreamLoad> self_;
  std::vector<bool> reported_;  // per stream
  size_t left_ = 0, reports_ = 0;
  bool started_   = false;
  bool cancelled_ = false;
};

}  // namespace

std::shared_ptr<WeightLoad> read_weights(StorageService& storage, const std::string& path, const std::string& source,
                                         const WeightTarget& t, const ReadShape& shape,
                                         std::function<void(bool over)> finished)
{
  const std::vector<FileId> set = storage.file_set(path);
  const double held             = storage.set_B(path);
  if (set.empty())
    throw SimulationError("no weights at '" + path + "' on storage '" + storage.name() + "' when instance " +
                          std::to_string(t.instance) +
                          " loads (no earlier phase wrote them, and none are declared in its files:)");
  if (held < t.weight_B) {
    const int digits = digits_to_tell_apart(held, t.weight_B, format_bytes);
    throw SimulationError("the files at '" + path + "' on storage '" + storage.name() + "' hold " +
                          format_bytes(held, digits) + ", less than the model's " + format_bytes(t.weight_B, digits) +
                          " of weights");
  }
  // The ranks read their slices of each file together (as tensor-parallel ranks do): one
  // stream per file the weights overlap, all at once, sharing the ranks' requests in flight.
  std::vector<std::pair<FileId, std::pair<double, double>>> pieces;  // file, offset in it, bytes
  const double begin = 0, end = t.weight_B;
  double at = 0;
  for (FileId f : set) {
    const double size = storage.file_B(f);
    const double from = std::max(begin, at), to = std::min(end, at + size);
    if (to > from)
      pieces.push_back({f, {from - at, to - from}});
    at += size;
  }
  const size_t in_flight = std::max<size_t>(1, shape.in_flight * static_cast<size_t>(t.ranks) / pieces.size());
  auto load              = std::make_shared<StreamLoad>(source, std::move(finished));
  for (const auto& [file, piece] : pieces) {
    FileStream::Setup s;
    s.op        = IoOp::Read;
    s.client    = t.host;
    s.file      = file;
    s.offset    = piece.first;
    s.bytes     = piece.second;
    s.chunk_B   = shape.chunk_B;
    s.in_flight = in_flight;
    load->add(storage, s);
  }
  load->start(load);
  return load;
}

}  // namespace llsim
