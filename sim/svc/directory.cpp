#include "sim/svc/directory.hpp"

#include "sim/core/registry.hpp"
#include "sim/core/text.hpp"

namespace llsim {

namespace {

constexpr size_t kMaxServices = 1000;  // each writes its own CSV and summary block

}  // namespace

ServiceDirectory::ServiceDirectory(const PlatformSpec& platform, uint64_t seed)
    : platform_(platform)
    , seed_(seed)
{}

ServiceDirectory::~ServiceDirectory() = default;

void ServiceDirectory::load(const YamlRef& services)
{
  if (!services.node().IsDefined() || services.node().IsNull())
    return;
  if (!services.node().IsMap())
    services.fail("expected a mapping of service names to services, e.g. pfs: {kind: storage, servers: oss}");
  if (services.node().size() > kMaxServices)
    services.fail("more than " + std::to_string(kMaxServices) + " services, llsim's limit");
  declarations_ = std::make_unique<YamlRef>(services);
  for (const auto& entry : services.node()) {
    const std::string name = entry.first.Scalar();
    if (name.empty() || name.find_first_of("/. ") != std::string::npos)
      services.child(name).fail("expected a service name without '/', '.' or spaces");
    build(name);
  }
  // Declaration order, for outputs.
  for (const auto& entry : services.node())
    order_.push_back(built_.at(entry.first.Scalar()).get());
}

std::vector<const Service*> ServiceDirectory::built() const
{
  std::vector<const Service*> out;
  for (const auto& [name, service] : built_)
    out.push_back(service.get());
  return out;
}

Service& ServiceDirectory::build(const std::string& name)
{
  const auto done = built_.find(name);
  if (done != built_.end())
    return *done->second;
  const YamlRef ref = declarations_->child(name);
  if (!building_.insert(name).second)
    ref.fail("services refer to each other in a cycle through '" + name + "'");
  const auto& entry      = Registry<Service>::lookup(ref);
  const ParamTable table = Registry<Service>::table_for(entry, Service::common_params());
  const Params p(ref, table);  // keeps a pointer to the table
  auto service = entry.make(p, Service::Context{platform_, name, seed_, *this});
  building_.erase(name);
  return *built_.emplace(name, std::move(service)).first->second;
}

Service& ServiceDirectory::resolve(const Params& p, const std::string& key, const char* kind)
{
  const std::string name = p.text(key);
  std::vector<std::string> candidates;
  if (declarations_)
    for (const auto& entry : declarations_->node())
      candidates.push_back(entry.first.Scalar());
  if (!declarations_ || !declarations_->child(name).node().IsDefined())
    p.fail(key, "no service named '" + name + "'" +
                    (candidates.empty() ? std::string(" (the scenario declares no 'services:')")
                                        : ": " + suggestion(name, candidates)));
  Service& s = build(name);
  if (kind != nullptr && std::string(s.kind()) != kind)
    p.fail(key, "service '" + name + "' is a " + s.kind() + " service; a " + kind + " service is expected here");
  return s;
}

}  // namespace llsim

namespace llsim {

std::string ServiceDirectory::kind_of(const Params& p, const std::string& key)
{
  return resolve(p, key, nullptr).kind();
}

}  // namespace llsim
