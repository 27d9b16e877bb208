// The services of a scenario (its top-level `services:` mapping), built at load time. A service
// that names another (a forwarding service's backend, a storage service's metadata) gets it
// from the directory, whatever order they are declared in; a cycle is an error.
#pragma once
#include "sim/svc/service.hpp"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace llsim {

class ServiceDirectory {
 public:
  ServiceDirectory(const PlatformSpec& platform, uint64_t seed);
  ~ServiceDirectory();

  // Builds every service of the `services:` mapping (absent: none).
  void load(const YamlRef& services);

  // The service named by the text parameter `key` of `p`, which must be a T (T::kKind); a
  // located error that lists the services of that kind otherwise.
  template <class T>
  T& get(const Params& p, const std::string& key)
  {
    Service& s = resolve(p, key, T::kKind);
    return static_cast<T&>(s);
  }

  // The kind of the service named by the text parameter `key` of `p` (a located error when
  // there is no such service).
  std::string kind_of(const Params& p, const std::string& key);

  // In declaration order.
  const std::vector<Service*>& all() const { return order_; }
  // The services built so far, by name (while loading: for a constructor that checks the others).
  std::vector<const Service*> built() const;

 private:
  Service& resolve(const Params& p, const std::string& key, const char* kind);  // kind null: any
  Service& build(const std::string& name);

  const PlatformSpec& platform_;
  uint64_t seed_;
  std::unique_ptr<YamlRef> declarations_;
  std::map<std::string, std::unique_ptr<Service>> built_;
  std::set<std::string> building_;
  std::vector<Service*> order_;
};

}  // namespace llsim
