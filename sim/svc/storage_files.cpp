// The files of a storage service (sim/svc/storage.hpp): their placement on targets, names,
// slices and the capacity they take (and its integral over time). Bookkeeping only: no simulated
// time passes.
#include "sim/core/text.hpp"
#include "sim/sg/clock.hpp"
#include "sim/sg/platform.hpp"
#include "sim/svc/storage.hpp"

#include <algorithm>

namespace llsim {

FileId StorageService::new_file(int64_t stripe_count)
{
  const int64_t wanted = stripe_count < 0 ? stripe_count_ : stripe_count;
  const size_t count   = wanted == 0 ? targets_ : std::min(static_cast<size_t>(wanted), targets_);
  File f;
  f.layout = {next_target_, count, 1, targets_, stripe_B_};
  // The next file starts after this one's stripes; a file over every target shifts the start by
  // one, so such files do not all begin on the same target.
  next_target_ = (next_target_ + (count < targets_ ? count : 1)) % targets_;
  files_.emplace(next_file_, std::move(f));
  return next_file_++;
}

FileId StorageService::new_local_file(size_t server)
{
  File f;
  f.layout = {server, disks_per_server_, server_count_, targets_, stripe_B_};
  files_.emplace(next_file_, std::move(f));
  return next_file_++;
}

std::vector<size_t> StorageService::targets_of(size_t server) const
{
  std::vector<size_t> out;
  for (size_t d = 0; d < disks_per_server_; ++d)
    out.push_back(d * server_count_ + server);
  return out;
}

FileId StorageService::new_object()
{
  File f;
  f.layout = {0, 0, 1, targets_, stripe_B_};
  files_.emplace(next_file_, std::move(f));
  return next_file_++;
}

double& StorageService::File::on(size_t target)
{
  if (bytes_on.empty() || bytes_on.back().first < target) {
    bytes_on.emplace_back(target, 0.0);
    return bytes_on.back().second;
  }
  auto it = std::lower_bound(bytes_on.begin(), bytes_on.end(), target,
                             [](const std::pair<size_t, double>& e, size_t t) { return e.first < t; });
  if (it == bytes_on.end() || it->first != target)
    it = bytes_on.insert(it, {target, 0.0});
  return it->second;
}

void StorageService::remove(FileId f)
{
  const auto it = files_.find(f);
  if (it == files_.end())
    return;
  for (const auto& [target, bytes] : it->second.bytes_on) {
    used_[target] -= bytes;
    stored_.change(clock_s(), -bytes);
  }
  files_.erase(it);
}

const FileId* StorageService::named(const std::string& name) const
{
  const size_t* f = names_.find(name);
  return f != nullptr && files_.count(*f) != 0 ? f : nullptr;
}

std::vector<FileId> StorageService::file_set(const std::string& path) const
{
  std::vector<FileId> set;
  for (FileId f : names_.under(path))
    if (files_.count(f) != 0)
      set.push_back(f);
  return set;
}

double StorageService::set_bytes(const std::string& path) const
{
  double bytes = 0;
  for (FileId f : file_set(path))
    bytes += file_bytes(f);
  return bytes;
}

std::vector<std::pair<size_t, double>> StorageService::parts(FileId f, double offset, double bytes) const
{
  const File& file = files_.at(f);
  if (file.layout.count > 0)
    return stripe_parts(file.layout, offset, bytes);
  // An object's slice is spread over its targets as its bytes are (a checkpoint's weights are a
  // share of every writer's bytes).
  const double total = file_bytes(f);
  std::vector<std::pair<size_t, double>> out;
  for (const auto& [target, held] : file.bytes_on)
    if (held > 0 && total > 0)
      out.emplace_back(target, held * bytes / total);
  return out;
}

double StorageService::file_bytes(FileId f) const
{
  double bytes = 0;
  for (const auto& on : files_.at(f).bytes_on)
    bytes += on.second;
  return bytes;
}

IoOutcome StorageService::take_space(FileId f, size_t target, double bytes)
{
  const auto file = files_.find(f);
  if (file == files_.end())
    return {IoStatus::Removed, "the file was removed"};  // its writer gave up on it
  if (used_[target] + bytes > capacity_B_) {
    const HostId host = host_of_target(target);
    return {IoStatus::NoSpace, "storage '" + name() + "': disk " + std::to_string(disk_of_target(target)) +
                                   " of server " + (platform_ ? platform_->name(host) : std::to_string(host)) +
                                   " is full: " + format_bytes(bytes) + " do not fit (" + format_bytes(used_[target]) +
                                   " used of " + format_bytes(capacity_B_) + ")"};
  }
  used_[target] += bytes;
  stored_.change(clock_s(), bytes);
  file->second.on(target) += bytes;
  return {};
}

void StorageService::give_back(FileId f, size_t target, double bytes)
{
  const auto it = files_.find(f);
  if (it == files_.end())
    return;  // removed meanwhile: remove() has freed its bytes
  used_[target] -= bytes;
  stored_.change(clock_s(), -bytes);
  it->second.on(target) -= bytes;
}

double StorageService::clock_s() const
{
  return platform_ != nullptr ? now() : 0;  // files declared at load time are there from the start
}

IoOutcome StorageService::account(FileId f, size_t target, double bytes)
{
  return take_space(f, target, bytes);
}

}  // namespace llsim
