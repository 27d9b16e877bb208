#include "sim/svc/files/stored_files.hpp"

#include <algorithm>

namespace llsim {

StoredFiles::StoredFiles(const TargetGrid& grid, int64_t stripe_count, double stripe_B)
    : grid_(grid)
    , stripe_count_(stripe_count)
    , stripe_B_(stripe_B)
    , used_(grid.targets(), 0)
{}

FileId StoredFiles::add(const StripeLayout& layout)
{
  files_.emplace(next_file_, File{layout, {}});
  return next_file_++;
}

FileId StoredFiles::new_file(int64_t stripe_count)
{
  const size_t targets = grid_.targets();
  const int64_t wanted = stripe_count < 0 ? stripe_count_ : stripe_count;
  const size_t count   = wanted == 0 ? targets : std::min(static_cast<size_t>(wanted), targets);
  const StripeLayout layout{next_target_, count, 1, targets, stripe_B_};
  // The next file starts after this one's stripes; a file over every target shifts the start by
  // one, so such files do not all begin on the same target.
  next_target_ = (next_target_ + (count < targets ? count : 1)) % targets;
  return add(layout);
}

FileId StoredFiles::new_local_file(size_t server)
{
  return add({server, grid_.disks_per_server, grid_.servers, grid_.targets(), stripe_B_});
}

FileId StoredFiles::new_object()
{
  return add({0, 0, 1, grid_.targets(), stripe_B_});
}

double& StoredFiles::File::on(size_t target)
{
  if (B_on_target.empty() || B_on_target.back().first < target) {
    B_on_target.emplace_back(target, 0.0);
    return B_on_target.back().second;
  }
  auto it = std::lower_bound(B_on_target.begin(), B_on_target.end(), target,
                             [](const std::pair<size_t, double>& e, size_t t) { return e.first < t; });
  if (it == B_on_target.end() || it->first != target)
    it = B_on_target.insert(it, {target, 0.0});
  return it->second;
}

void StoredFiles::remove(FileId f, double now_s)
{
  const auto it = files_.find(f);
  if (it == files_.end())
    return;
  for (const auto& [target, bytes] : it->second.B_on_target) {
    used_[target] -= bytes;
    stored_.change(now_s, -bytes);
  }
  files_.erase(it);
}

const FileId* StoredFiles::named(const std::string& name) const
{
  const size_t* f = names_.find(name);
  return f != nullptr && files_.count(*f) != 0 ? f : nullptr;
}

std::vector<FileId> StoredFiles::file_set(const std::string& path) const
{
  std::vector<FileId> set;
  for (FileId f : names_.under(path))
    if (files_.count(f) != 0)
      set.push_back(f);
  return set;
}

double StoredFiles::set_B(const std::string& path) const
{
  double bytes = 0;
  for (FileId f : file_set(path))
    bytes += file_B(f);
  return bytes;
}

std::vector<std::pair<size_t, double>> StoredFiles::parts(FileId f, double offset, double bytes) const
{
  const File& file = files_.at(f);
  if (file.layout.count > 0)
    return stripe_parts(file.layout, offset, bytes);
  // An object's slice is spread over its targets as its bytes are (a checkpoint's weights are a
  // share of every writer's bytes).
  const double total = file_B(f);
  std::vector<std::pair<size_t, double>> out;
  for (const auto& [target, held] : file.B_on_target)
    if (held > 0 && total > 0)
      out.emplace_back(target, held * bytes / total);
  return out;
}

double StoredFiles::file_B(FileId f) const
{
  double bytes = 0;
  for (const auto& on : files_.at(f).B_on_target)
    bytes += on.second;
  return bytes;
}

StoredFiles::Take StoredFiles::take(FileId f, size_t target, double bytes, double now_s)
{
  const auto file = files_.find(f);
  if (file == files_.end())
    return Take::Removed;  // its writer gave up on it
  if (used_[target] + bytes > grid_.capacity_B)
    return Take::Full;
  used_[target] += bytes;
  stored_.change(now_s, bytes);
  file->second.on(target) += bytes;
  return Take::Taken;
}

void StoredFiles::give_back(FileId f, size_t target, double bytes, double now_s)
{
  const auto it = files_.find(f);
  if (it == files_.end())
    return;  // removed meanwhile: remove() has freed its bytes
  used_[target] -= bytes;
  stored_.change(now_s, -bytes);
  it->second.on(target) -= bytes;
}

double StoredFiles::stored_B() const
{
  double stored = 0;
  for (double u : used_)
    stored += u;
  return stored;
}

}  // namespace llsim
