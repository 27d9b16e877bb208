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

}  // namespace llsim
