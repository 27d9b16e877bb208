// The storage service's file-level reads and writes of a client (storage.hpp): a file's range
// cut into its parts on the targets, sent in parallel, through the client's page cache.
#include "sim/faults/host_faults.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/wait_point.hpp"
#include "sim/svc/storage.hpp"

#include <memory>
#include <unordered_map>

namespace llsim {

namespace {

// One target's part of each range, one request per target, in the order the file's bytes reach
// the targets.
std::vector<std::pair<size_t, double>> parts_of(const StripeLayout& layout,
                                                const std::vector<std::pair<double, double>>& ranges)
{
  if (ranges.size() == 1)
    return stripe_parts(layout, ranges[0].first, ranges[0].second);
  std::vector<std::pair<size_t, double>> parts;
  std::unordered_map<size_t, size_t> index;
  for (const auto& [offset, bytes] : ranges)
    for (const auto& [target, part_B] : stripe_parts(layout, offset, bytes)) {
      const auto [at, added] = index.emplace(target, parts.size());
      if (added)
        parts.emplace_back(target, 0);
      parts[at->second].second += part_B;
    }
  return parts;
}

}  // namespace

struct StorageService::PendingIo {
  size_t left = 0;
  IoOutcome outcome;
  WaitPoint over;
};

void StorageService::drop_cache_if_rebooted(HostId client)
{
  if (!faults_->may_fail(client))
    return;
  double& checked_s = cache_checked_s_[client];
  if (faults_->outage_at(client, checked_s).down_s <= now())  // it went down since it last used its cache
    cache_.drop_host(client);
  checked_s = now();
}

IoOutcome StorageService::file_io(IoOp op, HostId client, FileId f, double offset, double bytes, double deadline)
{
  auto pending = std::make_shared<PendingIo>();
  std::vector<std::shared_ptr<PendingIo>> awaited;  // reads in flight of the bytes this one needs
  std::vector<std::pair<double, double>> asked = {{offset, bytes}};
  const bool cached_read                       = op == IoOp::Read && cache_.enabled();
  const uint64_t id                            = cached_read ? next_read_id_++ : 0;
  ClientPageCache::ReadPlan plan;
  if (cache_.enabled())
    drop_cache_if_rebooted(client);
  if (cached_read) {
    plan  = cache_.plan_read(client, f, offset, bytes, id);
    asked = plan.gaps;
    for (uint64_t other : plan.awaited)
      awaited.push_back(reading_.at(other));
    double asked_B = 0;
    for (const auto& gap : asked)
      asked_B += gap.second;
    if (bytes - asked_B >= 1)  // not a rounding sliver
      cached_read_B_ += bytes - asked_B;
    reading_[id] = pending;
  }
  const auto parts = asked.empty() ? std::vector<std::pair<size_t, double>>{} : parts_of(layout(f), asked);
  pending->left    = parts.size();
  for (const auto& [target, part_B] : parts) {
    TargetIo io;
    io.op     = op;
    io.client = client;
    io.target = target;
    io.bytes  = part_B;
    io.file   = f;
    submit(io, [pending](const IoOutcome& o) {
      if (!o.ok() && pending->outcome.ok())
        pending->outcome = o;
      if (--pending->left == 0)
        pending->over.notify_all();
    });
  }
  awaited.push_back(pending);
  IoOutcome outcome;
  for (const std::shared_ptr<PendingIo>& p : awaited) {
    if (!p->over.wait_until([&] { return p->left == 0; }, deadline)) {
      outcome = {IoStatus::TimedOut, "the deadline passed"};
      break;
    }
    if (outcome.ok())
      outcome = p->outcome;
  }
  if (cache_.enabled()) {
    const bool kept = outcome.ok() && exists(f);  // a file removed meanwhile leaves nothing to cache
    if (cached_read) {
      reading_.erase(id);
      cache_.read_over(client, f, id, plan, offset, bytes, kept);
    } else if (kept)
      cache_.written(client, f, offset, bytes);
  }
  return outcome;
}

IoOutcome StorageService::write(HostId client, FileId f, double offset, double bytes, double deadline)
{
  return file_io(IoOp::Write, client, f, offset, bytes, deadline);
}

IoOutcome StorageService::read(HostId client, FileId f, double offset, double bytes, double deadline)
{
  return file_io(IoOp::Read, client, f, offset, bytes, deadline);
}

}  // namespace llsim
