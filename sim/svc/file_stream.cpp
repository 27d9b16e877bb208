#include "sim/svc/file_stream.hpp"

#include <cmath>

namespace llsim {

std::shared_ptr<FileStream> FileStream::create(StorageService& storage, Setup setup)
{
  return std::shared_ptr<FileStream>(new FileStream(storage, std::move(setup)));
}

FileStream::FileStream(StorageService& storage, Setup setup)
    : storage_(storage)
    , s_(std::move(setup))
    , chunks_(static_cast<size_t>(std::ceil(s_.bytes / s_.chunk_B)))
{}

void FileStream::start()
{
  issue();
  if (chunks_ == 0)
    report();
}

void FileStream::stop()
{
  if (stopped_ || reported_)  // it has told its owner already: over() runs once
    return;
  stopped_ = true;
  if (failure_.ok())
    failure_ = {IoStatus::Removed, "the stream was stopped"};
  if (parts_outstanding_ == 0)
    report();
}

void FileStream::issue()
{
  while (failure_.ok() && chunks_in_flight_ < s_.in_flight && next_chunk_ < chunks_) {
    const size_t chunk  = next_chunk_++;
    const double offset = static_cast<double>(chunk) * s_.chunk_B;
    const double bytes  = std::min(s_.chunk_B, s_.bytes - offset);
    const auto parts    = storage_.parts(s_.file, s_.offset + offset, bytes);
    chunk_unsent_.push_back(parts.size());
    chunks_in_flight_ += 1;
    for (const auto& [target, part_B] : parts) {
      parts_.push_back({chunk, target, part_B});
      send(parts_.size() - 1);
    }
  }
}

void FileStream::send(size_t part)
{
  TargetIo io;
  io.op                 = s_.op;
  io.client             = s_.client;
  io.target             = parts_[part].target;
  io.bytes              = parts_[part].bytes;
  io.file               = s_.file;
  io.interruptions_left = s_.give_up_after;
  parts_outstanding_ += 1;
  auto self = shared_from_this();
  io.sent   = [self, part] { self->sent(part); };
  storage_.submit(std::move(io), [self, part](const IoOutcome& o) { self->completed(part, o); });
}

void FileStream::sent(size_t part)
{
  Part& p = parts_[part];
  if (p.sent)
    return;  // a request started over after a failure reports once
  p.sent = true;
  if (--chunk_unsent_[p.chunk] == 0) {
    chunks_in_flight_ -= 1;
    issue();
  }
}

void FileStream::completed(size_t part, const IoOutcome& o)
{
  parts_outstanding_ -= 1;
  if (o.ok()) {
    Part& p = parts_[part];
    sent(part);  // a part done is a part sent (whatever the service reported before)
    p.done = true;
    done_parts_ += 1;
    if (s_.moved)
      s_.moved(p.bytes);
  } else if (failure_.ok()) {
    failure_ = o;
  }
  if (failure_.ok())
    issue();
  if (parts_outstanding_ == 0 && (finished() || !failure_.ok()))
    report();
}

void FileStream::report()
{
  reported_ = true;
  if (s_.over)
    s_.over(failure_);
}

void FileStream::resume()
{
  failure_  = {};
  reported_ = false;
  for (size_t p = 0; p < parts_.size(); ++p)
    if (!parts_[p].done) {
      // It is on its way again: it holds its chunk's slot until it is sent.
      if (parts_[p].sent && chunk_unsent_[parts_[p].chunk]++ == 0)
        chunks_in_flight_ += 1;
      parts_[p].sent = false;
      send(p);
    }
  issue();
}

}  // namespace llsim
