#include "sim/svc/file_stream.hpp"

#include <cmath>

namespace llsim {

std::shared_ptr<FileStream> FileStream::create(StorageService& storage, Setup setup)
{
  return std::shared_ptr<FileStream>(new FileStream(storage, std::move(setup)));
}

FileStream::FileStream(StorageService& storage, Setup setup)
    : storage_(storage), s_(std::move(setup)), chunks_(static_cast<size_t>(std::ceil(s_.bytes / s_.chunk_B)))
{
}

void FileStream::start()
{
  issue();
  if (chunks_ == 0 && s_.over)
    s_.over({});
}

void FileStream::issue()
{
  while (failure_.ok() && chunks_outstanding_ < s_.in_flight && next_chunk_ < chunks_) {
    const size_t chunk  = next_chunk_++;
    const double offset = static_cast<double>(chunk) * s_.chunk_B;
    const double bytes  = std::min(s_.chunk_B, s_.bytes - offset);
    chunk_left_.push_back(0);
    chunks_outstanding_ += 1;
    for (const auto& [target, part_B] : stripe_parts(storage_.layout(s_.file), offset, bytes)) {
      parts_.push_back({chunk, target, part_B});
      chunk_left_[chunk] += 1;
      send(parts_.size() - 1);
    }
  }
}

void FileStream::send(size_t part)
{
  TargetIo io;
  io.op     = s_.op;
  io.client = s_.client;
  io.target = parts_[part].target;
  io.bytes  = parts_[part].bytes;
  io.file   = s_.file;
  parts_outstanding_ += 1;
  auto self = shared_from_this();
  storage_.submit(io, [self, part](const IoOutcome& o) { self->completed(part, o); });
}

void FileStream::completed(size_t part, const IoOutcome& o)
{
  parts_outstanding_ -= 1;
  if (o.ok()) {
    Part& p = parts_[part];
    p.done  = true;
    done_parts_ += 1;
    if (s_.moved)
      s_.moved(p.bytes);
    if (--chunk_left_[p.chunk] == 0)
      chunks_outstanding_ -= 1;
  } else if (failure_.ok()) {
    failure_ = o;
  }
  if (failure_.ok())
    issue();
  if (parts_outstanding_ == 0 && (finished() || !failure_.ok()) && s_.over)
    s_.over(failure_);
}

void FileStream::resume()
{
  failure_ = {};
  for (size_t p = 0; p < parts_.size(); ++p)
    if (!parts_[p].done)
      send(p);
  issue();
}

}  // namespace llsim
