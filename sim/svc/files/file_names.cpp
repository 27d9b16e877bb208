#include "sim/svc/files/file_names.hpp"

#include <cstdint>
#include <cstdio>

namespace llsim {

const size_t* FileNames::find(const std::string& name) const
{
  const auto it = names_.find(name);
  return it == names_.end() ? nullptr : &it->second;
}

std::vector<size_t> FileNames::under(const std::string& path) const
{
  std::vector<size_t> files;
  if (const size_t* f = find(path))
    files.push_back(*f);
  const std::string dir = path + "/";
  for (auto it = names_.lower_bound(dir); it != names_.end() && it->first.compare(0, dir.size(), dir) == 0; ++it)
    files.push_back(it->second);
  return files;
}

bool FileNames::known(const std::string& path) const
{
  return promised_.count(path) != 0 || !under(path).empty();
}

std::string FileNames::local_name(size_t server, const std::string& path)
{
  return "server-" + std::to_string(server) + ":" + path;
}

std::string shard_name(const std::string& path, int64_t k, int64_t shards)
{
  if (shards == 1)
    return path;
  char name[64];
  std::snprintf(name, sizeof name, "model-%05lld-of-%05lld.safetensors", static_cast<long long>(k),
                static_cast<long long>(shards));
  return path + "/" + name;
}

}  // namespace llsim
