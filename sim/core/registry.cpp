#include "sim/core/registry.hpp"

namespace llsim {

std::vector<RegistryCatalog::Interface>& RegistryCatalog::interfaces()
{
  static std::vector<Interface> list;
  return list;
}

std::vector<std::string>& RegistryCatalog::errors()
{
  static std::vector<std::string> list;
  return list;
}

std::string source_relative(const char* file)
{
  const std::string path = file;
  const std::string root = std::string(LLSIM_SOURCE_DIR) + "/";
  return path.compare(0, root.size(), root) == 0 ? path.substr(root.size()) : path;
}

}  // namespace llsim
