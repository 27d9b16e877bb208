#include "sim/ingest/ingest_run.hpp"

#include "sim/sg/clock.hpp"
#include "sim/sg/log.hpp"
#include "sim/sg/timer.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/meta_path.hpp"
#include "sim/svc/metadata.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>
#include <limits>

XBT_LOG_EXTERNAL_CATEGORY(llsim_ingest);
XBT_LOG_NEW_DEFAULT_SUBCATEGORY(llsim_ingest_ingest_run, llsim_ingest,
                                "each operation's directory-cache hits and misses and the servers its RPCs go to");

namespace llsim {

namespace {

// For logs: the directories above the target of `path`, root excluded.
size_t path_dirs(std::string_view path)
{
  return path.size() > 1 ? static_cast<size_t>(std::count(path.begin() + 1, path.end(), '/')) : 0;
}

// For logs: "0 3 3", the servers of the lookups of `dirs` or of `rpcs`, in order.
std::string lookup_servers(const MetadataModel& model, const std::vector<std::string_view>& dirs)
{
  std::string text;
  for (std::string_view dir : dirs)
    text += (text.empty() ? "" : " ") + std::to_string(model.lookup_server(dir));
  return text;
}

std::string rpc_servers(const std::vector<MetaRpc>& rpcs)
{
  std::string text;
  for (const MetaRpc& rpc : rpcs)
    text += (text.empty() ? "" : " ") + std::to_string(rpc.server);
  return text;
}

}  // namespace

struct IngestRun::Rank {
  int64_t id;
  HostId host;
  size_t cache;  // index of its host's cache
  IngestOp op;
  double started_s = 0;
  std::vector<std::string_view> lookups;  // directories still to resolve (parts of op.path)
  std::vector<uint64_t> lookup_hashes;
  size_t waiting = 0;  // replies outstanding
  std::vector<MetaRpc> rpcs;
};

IngestRun::IngestRun(const IngestSetup& setup, Timer& timer, IngestTally& tally)
    : s_(setup)
    , timer_(timer)
    , tally_(tally)
    , finished_(std::make_unique<WaitPoint>())
{
  for (int64_t h = 0; h < s_.clients->count; ++h) {
    caches_.emplace_back(s_.cache_entries, s_.cache_ttl_s);
    for (int64_t k = 0; k < s_.ranks_per_host; ++k)
      ranks_.push_back(
          {static_cast<int64_t>(ranks_.size()), s_.clients->host(h), static_cast<size_t>(h), {}, 0, {}, {}, 0, {}});
  }
}

IngestRun::~IngestRun() = default;

std::string IngestRun::run()
{
  phase_start_s_ = now();
  start_step();
  finished_->wait_until([this] { return over_; }, std::numeric_limits<double>::infinity());
  return error_;
}

void IngestRun::start_step()
{
  step_start_s_ = now();
  step_ops_     = tally_.ops();
  ranks_left_   = ranks_.size();
  for (auto& r : ranks_)
    issue(r);
}

void IngestRun::issue(Rank& r)
{
  if (!error_.empty())
    return;
  if (!s_.workload->next(step_, r.id, &r.op)) {
    rank_done();
    return;
  }
  const double due = phase_start_s_ + r.op.at_s;
  if (due > now())
    timer_.at(due, [this, &r] { begin(r); });
  else
    begin(r);
}

void IngestRun::begin(Rank& r)
{
  r.started_s = now();
  r.lookups.clear();
  r.lookup_hashes.clear();
  // Every directory above the target, root excluded, that the host's cache does not hold; the
  // hash of each prefix continues the previous one's.
  const std::string_view path = r.op.path;
  DirCache& cache             = caches_[r.cache];
  uint64_t h                  = kPathHashSeed;
  size_t from                 = 0;
  for (size_t slash = path.find('/', 1); slash != std::string_view::npos; slash = path.find('/', slash + 1)) {
    h    = path_hash_more(h, path.substr(from, slash - from));
    from = slash;
    if (!cache.holds(h, now())) {
      r.lookups.push_back(path.substr(0, slash));
      r.lookup_hashes.push_back(h);
    }
  }
  XBT_DEBUG("rank %ld %s %s: %zu of %zu directories cached, lookups to servers [%s]", static_cast<long>(r.id),
            meta_op_name(r.op.op), r.op.path.c_str(), path_dirs(path) - r.lookups.size(), path_dirs(path),
            lookup_servers(s_.metadata->model(), r.lookups).c_str());
  look_up(r);
}

void IngestRun::look_up(Rank& r)
{
  if (r.lookups.empty()) {
    send_op(r);
    return;
  }
  MetadataModel& model = s_.metadata->model();
  // In parallel, every lookup at once; otherwise the first one, then the rest.
  const size_t batch = model.parallel_lookups() ? r.lookups.size() : 1;
  r.waiting          = batch;
  for (size_t i = 0; i < batch; ++i) {
    const size_t server = model.lookup_server(r.lookups[i]);
    s_.metadata->submit(r.host, {server, MetaOp::Stat, 0, 0}, s_.scale, true, [this, &r, server, batch](bool ok) {
      if (!ok)
        return fail(s_.metadata->capacity_error());
      tally_.rpc_done(server, now());
      if (--r.waiting > 0)
        return;
      for (size_t k = 0; k < batch; ++k)
        caches_[r.cache].insert(r.lookup_hashes[k], now());
      r.lookups.erase(r.lookups.begin(), r.lookups.begin() + static_cast<std::ptrdiff_t>(batch));
      r.lookup_hashes.erase(r.lookup_hashes.begin(), r.lookup_hashes.begin() + static_cast<std::ptrdiff_t>(batch));
      look_up(r);
    });
  }
}

void IngestRun::send_op(Rank& r)
{
  r.rpcs.clear();
  s_.metadata->model().rpcs(r.op.op, r.op.path, &r.rpcs);
  XBT_DEBUG("rank %ld %s %s: RPCs to servers [%s]", static_cast<long>(r.id), meta_op_name(r.op.op), r.op.path.c_str(),
            rpc_servers(r.rpcs).c_str());
  r.waiting = r.rpcs.size();
  for (const MetaRpc& rpc : r.rpcs) {
    const size_t server = rpc.server;
    s_.metadata->submit(r.host, rpc, s_.scale, true, [this, &r, server](bool ok) {
      if (!ok)
        return fail(s_.metadata->capacity_error());
      tally_.rpc_done(server, now());
      if (--r.waiting == 0)
        op_done(r);
    });
  }
}

void IngestRun::op_done(Rank& r)
{
  if (!error_.empty())
    return;
  tally_.op_done(r.op.op, now() - r.started_s);
  if (r.op.op == MetaOp::Mkdir)
    caches_[r.cache].insert(path_hash(r.op.path), now());
  if (r.op.op == MetaOp::Create) {
    tally_.file_created(s_.storage ? r.op.bytes : 0);
    if (r.op.bytes > 0) {
      write_data(r);
      return;
    }
  }
  issue(r);
}

void IngestRun::write_data(Rank& r)
{
  // The file's bytes, then its close (which records its size).
  const auto close = [this, &r] {
    r.op.op     = MetaOp::Close;
    r.op.bytes  = 0;
    r.started_s = now();
    send_op(r);
  };
  if (!s_.storage) {
    close();
    return;
  }
  const FileId file = s_.storage->new_file(1);
  TargetIo io;
  io.op     = IoOp::Write;
  io.client = r.host;
  io.target = s_.storage->layout(file).target(0);
  io.bytes  = r.op.bytes * static_cast<double>(s_.scale);
  io.file   = file;
  s_.storage->submit(io, [this, close](const IoOutcome& o) {
    if (!o.ok())
      return fail("writing a file's bytes: " + o.message);
    close();
  });
}

void IngestRun::rank_done()
{
  if (--ranks_left_ > 0)
    return;
  tally_.step_done(s_.workload->step_name(step_), step_start_s_, now(), tally_.ops() - step_ops_);
  if (++step_ < s_.workload->steps()) {
    start_step();
    return;
  }
  over_ = true;
  finished_->notify_all();
}

void IngestRun::fail(const std::string& message)
{
  if (!error_.empty())
    return;
  error_ = message.empty() ? "a metadata operation failed" : message;
  over_  = true;
  finished_->notify_all();
}

}  // namespace llsim
