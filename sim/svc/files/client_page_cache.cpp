#include "sim/svc/files/client_page_cache.hpp"

#include <algorithm>
#include <iterator>

namespace llsim {

namespace {

// Gaps apart by less than a byte joined, and gaps of less than a byte left out.
std::vector<std::pair<double, double>> without_slivers(const std::vector<std::pair<double, double>>& gaps)
{
  std::vector<std::pair<double, double>> out;
  for (const auto& [start, bytes] : gaps) {
    if (!out.empty() && start - (out.back().first + out.back().second) < 1)
      out.back().second = start + bytes - out.back().first;
    else
      out.emplace_back(start, bytes);
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const auto& gap) { return gap.second < 1; }), out.end());
  return out;
}

}  // namespace

std::vector<std::pair<double, double>> ClientPageCache::missing(HostId host, FileId f, double offset, double bytes)
{
  const double end = offset + bytes;
  auto h           = hosts_.find(host);
  if (h == hosts_.end() || h->second.ranges.count(f) == 0)
    return {{offset, bytes}};
  HostCache& c                         = h->second;
  const std::map<double, double>& held = c.ranges[f];
  std::vector<std::pair<double, double>> out;
  double at = offset;
  auto r    = held.upper_bound(offset);  // the first range starting after `offset`, and the one before
  if (r != held.begin() && std::prev(r)->second > at)
    at = std::prev(r)->second;
  for (; r != held.end() && r->first < end && at < end; ++r) {
    if (r->first > at)
      out.emplace_back(at, r->first - at);
    at = std::max(at, r->second);
  }
  if (at < end)
    out.emplace_back(at, end - at);
  touch(c, f);
  return without_slivers(out);
}

ClientPageCache::ReadPlan ClientPageCache::plan_read(HostId host, FileId f, double offset, double bytes, uint64_t id)
{
  ReadPlan plan;
  plan.version                              = version_[f];
  std::vector<HostCache::InFlight>& reading = hosts_[host].reading[f];
  for (auto [start, gap_B] : missing(host, f, offset, bytes)) {
    const double end = start + gap_B;
    // Cut the gap around the ranges in flight (they are disjoint: each was a gap when planned).
    std::vector<HostCache::InFlight> over;
    for (const HostCache::InFlight& r : reading)
      if (r.start < end && r.end > start)
        over.push_back(r);
    std::sort(over.begin(), over.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    for (const HostCache::InFlight& r : over) {
      if (r.start > start)
        plan.gaps.emplace_back(start, r.start - start);
      start = std::max(start, r.end);
      if (std::find(plan.awaited.begin(), plan.awaited.end(), r.id) == plan.awaited.end())
        plan.awaited.push_back(r.id);
    }
    if (start < end)
      plan.gaps.emplace_back(start, end - start);
  }
  for (const auto& [start, gap_B] : plan.gaps)
    reading.push_back({start, start + gap_B, id});
  return plan;
}

void ClientPageCache::read_over(HostId host, FileId f, uint64_t id, const ReadPlan& plan, double offset, double bytes,
                                bool ok)
{
  HostCache& c = hosts_[host];
  auto r       = c.reading.find(f);
  if (r != c.reading.end()) {
    r->second.erase(std::remove_if(r->second.begin(), r->second.end(), [id](const auto& x) { return x.id == id; }),
                    r->second.end());
    if (r->second.empty())
      c.reading.erase(r);
  }
  if (ok && version_[f] == plan.version)
    keep(host, f, offset, bytes);
}

void ClientPageCache::keep(HostId host, FileId f, double offset, double bytes)
{
  if (!enabled() || bytes <= 0 || bytes > capacity_B_)
    return;
  HostCache& c                   = hosts_[host];
  std::map<double, double>& held = c.ranges[f];
  double start = offset, end = offset + bytes, before = 0;
  // Merge every range that touches [start, end) into it.
  auto r = held.upper_bound(start);
  if (r != held.begin() && std::prev(r)->second >= start)
    --r;
  while (r != held.end() && r->first <= end) {
    start = std::min(start, r->first);
    end   = std::max(end, r->second);
    before += r->second - r->first;
    r = held.erase(r);
  }
  held.emplace(start, end);
  c.file_B[f] += (end - start) - before;
  c.held_B += (end - start) - before;
  touch(c, f);
  while (c.held_B > capacity_B_ && c.recency.back() != f)
    drop(c, c.recency.back());
  if (c.held_B > capacity_B_)  // the file alone is over: only the new range stays
    drop(c, f), keep(host, f, offset, bytes);
}

void ClientPageCache::written(HostId host, FileId f, double offset, double bytes)
{
  if (!enabled())
    return;
  version_[f] += 1;
  for (auto& [other, c] : hosts_)
    if (other != host && c.ranges.count(f) > 0)
      drop(c, f);
  keep(host, f, offset, bytes);
}

void ClientPageCache::forget(FileId f)
{
  if (!enabled())
    return;
  version_[f] += 1;
  for (auto& [host, c] : hosts_)
    if (c.ranges.count(f) > 0)
      drop(c, f);
}

void ClientPageCache::drop_host(HostId host)
{
  const auto h = hosts_.find(host);
  if (h == hosts_.end())
    return;
  while (!h->second.recency.empty())
    drop(h->second, h->second.recency.back());
}

double ClientPageCache::held_B(HostId host) const
{
  const auto h = hosts_.find(host);
  return h == hosts_.end() ? 0 : h->second.held_B;
}

void ClientPageCache::touch(HostCache& c, FileId f)
{
  const auto p = c.place.find(f);
  if (p != c.place.end())
    c.recency.erase(p->second);
  c.recency.push_front(f);
  c.place[f] = c.recency.begin();
}

void ClientPageCache::drop(HostCache& c, FileId f)
{
  c.held_B -= c.file_B[f];
  c.file_B.erase(f);
  c.ranges.erase(f);
  const auto p = c.place.find(f);
  if (p != c.place.end()) {
    c.recency.erase(p->second);
    c.place.erase(p);
  }
}

}  // namespace llsim
