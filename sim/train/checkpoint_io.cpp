#include "sim/train/checkpoint_io.hpp"

#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/metadata.hpp"

#include <algorithm>

XBT_LOG_EXTERNAL_CATEGORY(llsim_train);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_train_checkpoint_io, llsim_train, "checkpoint I/O through the services");

namespace llsim {

namespace {

bool is_write(IoKind kind)
{
  return kind == IoKind::PfsWrite || kind == IoKind::LocalWrite || kind == IoKind::PartnerCopy;
}

bool on_pfs(IoKind kind)
{
  return kind == IoKind::PfsWrite || kind == IoKind::PfsRead;
}

}  // namespace

std::shared_ptr<CheckpointIo> CheckpointIo::start(const IoRoute& route, const IoPlan& plan, IoKind kind, double share,
                                                  double scale, FileId object, int64_t checkpoint)
{
  std::shared_ptr<CheckpointIo> io(new CheckpointIo(route, kind, object));
  io->build(plan, share, scale, checkpoint);
  XBT_DEBUG("%s of checkpoint %ld: %zu pieces", io_kind_name(kind), static_cast<long>(checkpoint), io->pieces_.size());
  if (io->pieces_left_ == 0)
    io->end_s_ = now();
  else
    io->open_files();
  return io;
}

CheckpointIo::CheckpointIo(const IoRoute& route, IoKind kind, FileId object)
    : route_(route), kind_(kind), object_(object), over_(std::make_unique<WaitPoint>())
{
}

CheckpointIo::~CheckpointIo() = default;

StorageService& CheckpointIo::storage() const
{
  return on_pfs(kind_) ? route_.pfs : *route_.local;
}

void CheckpointIo::build(const IoPlan& plan, double share, double scale, int64_t checkpoint)
{
  const size_t writers = plan.writers.size();
  for (size_t w = 0; w < writers; ++w) {
    const IoWriter& writer = plan.writers[w];
    const HostId node      = route_.nodes.host(writer.node);
    if (on_pfs(kind_)) {
      const size_t forwarder = route_.forwarding ? route_.forwarding->forwarder_for(writer.node, w) : 0;
      for (size_t k = 0; k < writer.pieces.size(); ++k) {
        const IoPiece& p = writer.pieces[k];
        if (p.bytes * scale < 0.5)
          continue;
        pieces_.push_back({node, forwarder, {p.target}, p.bytes * scale, 0,
                           0, 0, writer.rate_cap_Bps / static_cast<double>(writer.pieces.size()),
                           "/" + route_.name + "/checkpoint" + std::to_string(checkpoint) + "/" + std::to_string(w) +
                               "." + std::to_string(k),
                           p.files});
      }
      continue;
    }
    // Node-local levels: the writer's own node, or its partner's for a copy.
    StorageService& local = *route_.local;
    const HostId holder =
        kind_ == IoKind::PartnerCopy ? route_.nodes.host(plan.writers[(w + 1) % writers].node) : node;
    const double bytes    = writer.bytes * scale * (kind_ == IoKind::PartnerCopy ? share : 1);
    if (bytes < 0.5)
      continue;
    pieces_.push_back({node, 0, local.targets_of(local.server_index(holder)), bytes, 0, 0, 0, writer.rate_cap_Bps, "", 0});
  }
  pieces_left_ = pieces_.size();
}

void CheckpointIo::open_files()
{
  const bool write   = is_write(kind_);
  const MetaOp op    = write ? MetaOp::Create : MetaOp::Open;
  MetadataService* md = route_.pfs.metadata();
  if (!on_pfs(kind_) || (md == nullptr && route_.forwarding == nullptr)) {
    for (size_t p = 0; p < pieces_.size(); ++p)
      issue(p);
    return;
  }
  if (route_.forwarding) {
    auto self = shared_from_this();
    for (size_t p = 0; p < pieces_.size(); ++p) {
      if (pieces_[p].files == 0) {
        issue(p);
        continue;
      }
      route_.forwarding->submit_metadata(pieces_[p].forwarder, op, pieces_[p].path, pieces_[p].files,
                                         [self, p](const IoOutcome&) { self->issue(p); });
    }
    return;
  }
  // Straight to the file system: each writer node's process makes its own metadata RPCs.
  auto self = shared_from_this();
  for (size_t p = 0; p < pieces_.size(); ++p) {
    if (pieces_[p].files == 0) {
      issue(p);
      continue;
    }
    md->call_async(pieces_[p].client, op, pieces_[p].path, pieces_[p].files, true, [self, p](bool) { self->issue(p); });
  }
}

void CheckpointIo::issue(size_t p)
{
  Piece& piece     = pieces_[p];
  const bool write = is_write(kind_);
  // One request leaving the node at a time: a write's next leaves when its bytes are sent
  // (write-behind), a read's next when it is taken into service, up to `read_ahead` in flight.
  const auto may_issue = [&] { return piece.sending == 0 && (write || piece.outstanding < route_.read_ahead); };
  while (!cancelled_ && failure_.ok() && piece.left_B >= 0.5 && may_issue()) {
    const double bytes  = std::min(route_.request_B, std::round(piece.left_B));
    const size_t target = piece.targets[piece.next++ % piece.targets.size()];
    piece.left_B -= bytes;
    piece.outstanding += 1;
    piece.sending += 1;
    const double min_s = piece.rate_Bps > 0 ? bytes / piece.rate_Bps : 0;
    auto self          = shared_from_this();
    auto sent_once     = std::make_shared<bool>(false);  // a request retried after a failure reports once
    const auto sent    = [self, p, sent_once] {
      if (*sent_once)
        return;
      *sent_once = true;
      self->pieces_[p].sending -= 1;
      self->issue(p);
    };
    const auto done = [self, p](const IoOutcome& o) { self->completed(p, o); };
    if (on_pfs(kind_) && route_.forwarding) {
      ForwardedIo io;
      io.op            = write ? IoOp::Write : IoOp::Read;
      io.client        = piece.client;
      io.forwarder     = piece.forwarder;
      io.target        = target;
      io.bytes         = bytes;
      io.file          = object_;
      io.min_first_hop = min_s;
      io.sent          = sent;
      route_.forwarding->submit(io, done);
    } else {
      TargetIo io;
      io.op           = write ? IoOp::Write : IoOp::Read;
      io.client       = piece.client;
      io.target       = target;
      io.bytes        = bytes;
      io.file         = object_;
      io.min_duration = min_s;
      io.sent         = sent;
      storage().submit(io, done);
    }
  }
}

void CheckpointIo::completed(size_t p, const IoOutcome& o)
{
  Piece& piece = pieces_[p];
  piece.outstanding -= 1;
  if (o.status == IoStatus::NoSpace && failure_.ok())
    failure_ = o;
  if (!failure_.ok() && pieces_left_ > 0) {
    pieces_left_ = 0;  // the operation is over: it failed
    end_s_       = now();
    over_->notify_all();
    return;
  }
  if (cancelled_ || !failure_.ok())
    return;
  issue(p);
  if (piece.left_B < 0.5 && piece.outstanding == 0 && --pieces_left_ == 0) {
    end_s_ = now();
    over_->notify_all();
  }
}

bool CheckpointIo::wait(double deadline)
{
  return over_->wait_until([this] { return pieces_left_ == 0; }, deadline);
}

}  // namespace llsim
