#include "sim/train/checkpoint_io.hpp"

#include "sim/faults/host_faults.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/metadata.hpp"

#include <algorithm>

XBT_LOG_EXTERNAL_CATEGORY(llsim_train);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_train_checkpoint_io, llsim_train, "checkpoint I/O through the services");

namespace llsim {

std::shared_ptr<CheckpointIo> CheckpointIo::start(const IoRoute& route, const IoPlan& plan, IoKind kind, double share,
                                                  double scale, FileId object, int64_t checkpoint,
                                                  const std::set<size_t>& lost)
{
  std::shared_ptr<CheckpointIo> io(new CheckpointIo(route, kind, object));
  io->build(plan, share, scale, checkpoint, lost);
  XBT_DEBUG("%s of checkpoint %ld: %zu pieces, %zu streams", io_kind_name(kind), static_cast<long>(checkpoint),
            io->pieces_.size(), io->streams_.size());
  io->unissued_ = io->pieces_.size();
  if (io->pieces_.empty()) {
    io->finished_ = true;
    io->end_s_    = now();
  } else {
    io->open_files();
  }
  return io;
}

CheckpointIo::CheckpointIo(const IoRoute& route, IoKind kind, FileId object)
    : route_(route)
    , kind_(kind)
    , object_(object)
    , over_(std::make_unique<WaitPoint>())
{}

CheckpointIo::~CheckpointIo() = default;

StorageService& CheckpointIo::storage() const
{
  return on_pfs(kind_) ? route_.pfs : *route_.local;
}

void CheckpointIo::build(const IoPlan& plan, double share, double scale, int64_t checkpoint,
                         const std::set<size_t>& lost)
{
  const size_t writers = plan.writers.size();
  streams_of_writer_.assign(writers, {0, 0});
  for (size_t w = 0; w < writers; ++w) {
    const IoWriter& writer = plan.writers[w];
    const HostId node      = route_.nodes.host(writer.node);
    std::vector<size_t> mine;
    if (on_pfs(kind_)) {
      for (size_t k = 0; k < writer.pieces.size(); ++k) {
        const IoPiece& p = writer.pieces[k];
        if (p.bytes * scale < 0.5)
          continue;
        mine.push_back(pieces_.size());
        pieces_.push_back({{p.target},
                           p.bytes * scale,
                           0,
                           false,
                           w,
                           "/" + route_.name + "/checkpoint" + std::to_string(checkpoint) + "/" + std::to_string(w) +
                               "." + std::to_string(k),
                           p.files});
      }
      const size_t forwarder = route_.forwarding ? route_.forwarding->forwarder_for(writer.node, w) : 0;
      add_writer(node, forwarder, writer.processes, mine);
      continue;
    }
    // Node-local levels: the writer's own node, or its partner's for a copy and for reading back
    // a lost part; no files to create. A holder that is down is a spare's (not simulated).
    StorageService& local   = *route_.local;
    const bool from_partner = kind_ == IoKind::PartnerCopy || (kind_ == IoKind::LocalRead && lost.count(w) != 0);
    const HostId holder     = from_partner ? route_.nodes.host(plan.writers[plan.partner_of(w)].node) : node;
    const double bytes      = writer.bytes * scale * (kind_ == IoKind::PartnerCopy ? share : 1);
    if (bytes < 0.5 || route_.faults.is_down(holder, now()))
      continue;
    mine.push_back(pieces_.size());
    pieces_.push_back({local.targets_of(local.server_index(holder)), bytes, 0, true, w, "", 0});
    add_writer(node, 0, writer.processes, mine);
  }
}

void CheckpointIo::add_writer(HostId client, size_t forwarder, int64_t processes, const std::vector<size_t>& pieces)
{
  if (pieces.empty())
    return;
  // A piece stands for files of several processes when the layout merged them: its processes
  // are one stream then, at their combined bandwidth. With more pieces than processes, each
  // process is a stream taking pieces i, i + processes, ... in turn.
  const auto procs   = static_cast<size_t>(std::max<int64_t>(1, processes));
  const size_t count = std::min(procs, pieces.size());
  const double rate  = route_.process_Bps * static_cast<double>(procs) / static_cast<double>(count);
  streams_of_writer_[pieces_[pieces.front()].writer] = {streams_.size(), streams_.size() + count};
  for (size_t i = 0; i < count; ++i) {
    Stream stream{client, forwarder, rate, {}};
    for (size_t k = i; k < pieces.size(); k += count)
      stream.pieces.push_back(pieces[k]);
    streams_.push_back(std::move(stream));
  }
}

void CheckpointIo::open_files()
{
  const MetaOp op     = is_write(kind_) ? MetaOp::Create : MetaOp::Open;
  MetadataService* md = route_.pfs.metadata();
  const bool by_rpc   = on_pfs(kind_) && (md != nullptr || route_.forwarding != nullptr);
  auto self           = shared_from_this();
  for (size_t p = 0; p < pieces_.size(); ++p) {
    const Piece& piece = pieces_[p];
    if (!by_rpc || piece.files == 0 || piece.open) {
      opened(p);
    } else if (route_.forwarding) {
      const size_t forwarder = streams_[streams_of_writer_[piece.writer].first].forwarder;
      route_.forwarding->submit_metadata(forwarder, op, piece.path, piece.files,
                                         [self, p](const IoOutcome&) { self->opened(p); });
    } else {
      // Straight to the file system: the writer node's processes make their own metadata RPCs.
      const HostId client = streams_[streams_of_writer_[piece.writer].first].client;
      md->call_async(client, op, piece.path, piece.files, true, [self, p](bool) { self->opened(p); });
    }
  }
}

void CheckpointIo::opened(size_t piece)
{
  pieces_[piece].open      = true;
  const auto [first, last] = streams_of_writer_[pieces_[piece].writer];
  for (size_t s = first; s < last; ++s)
    issue(s);
}

void CheckpointIo::issue(size_t s)
{
  Stream& stream   = streams_[s];
  const bool write = is_write(kind_);
  // One request leaving the node at a time: a write's next leaves when its bytes are sent
  // (write-behind), a read's next when it is taken into service, up to `read_ahead` in flight.
  while (!cancelled_ && failure_.ok() && stream.sending == 0 && (write || stream.outstanding < route_.read_ahead)) {
    // The next of its pieces with bytes left; a piece not open yet holds the process up (the
    // process creates its files before it writes them).
    Piece* piece = nullptr;
    for (size_t tried = 0; tried < stream.pieces.size() && piece == nullptr; ++tried) {
      Piece& candidate = pieces_[stream.pieces[stream.next % stream.pieces.size()]];
      if (candidate.left_B >= 0.5)
        piece = &candidate;
      else
        stream.next += 1;
    }
    if (piece == nullptr || !piece->open)
      return;
    stream.next += 1;
    const double bytes  = std::min(route_.request_B, std::round(piece->left_B));
    const size_t target = piece->targets[piece->next++ % piece->targets.size()];
    piece->left_B -= bytes;
    unissued_ -= piece->left_B < 0.5 ? 1 : 0;
    stream.outstanding += 1;
    stream.sending += 1;
    outstanding_ += 1;
    const double min_s = stream.rate_Bps > 0 ? bytes / stream.rate_Bps : 0;
    auto self          = shared_from_this();
    auto sent_once     = std::make_shared<bool>(false);  // a request retried after a failure reports once
    const auto sent    = [self, s, sent_once] {
      if (*sent_once)
        return;
      *sent_once = true;
      self->streams_[s].sending -= 1;
      self->issue(s);
    };
    const auto done = [self, s](const IoOutcome& o) { self->completed(s, o); };
    if (on_pfs(kind_) && route_.forwarding) {
      ForwardedIo io;
      io.op            = write ? IoOp::Write : IoOp::Read;
      io.client        = stream.client;
      io.forwarder     = stream.forwarder;
      io.target        = target;
      io.bytes         = bytes;
      io.file          = object_;
      io.min_first_hop = min_s;
      io.sent          = sent;
      route_.forwarding->submit(io, done);
    } else {
      TargetIo io;
      io.op           = write ? IoOp::Write : IoOp::Read;
      io.client       = stream.client;
      io.target       = target;
      io.bytes        = bytes;
      io.file         = object_;
      io.min_duration = min_s;
      io.sent         = sent;
      storage().submit(io, done);
    }
  }
}

void CheckpointIo::completed(size_t s, const IoOutcome& o)
{
  streams_[s].outstanding -= 1;
  outstanding_ -= 1;
  if (finished_)
    return;
  if (o.status == IoStatus::NoSpace && failure_.ok())
    failure_ = o;
  if (!failure_.ok()) {
    finished_ = true;  // the operation is over: it failed
    end_s_    = now();
    over_->notify_all();
    return;
  }
  if (cancelled_)
    return;
  issue(s);
  if (outstanding_ == 0 && unissued_ == 0) {
    finished_ = true;
    end_s_    = now();
    over_->notify_all();
  }
}

bool CheckpointIo::wait(double deadline)
{
  return over_->wait_until([this] { return finished_; }, deadline);
}

}  // namespace llsim
