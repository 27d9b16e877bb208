#include "sim/svc/declared_files.hpp"

#include "sim/core/text.hpp"
#include "sim/svc/storage.hpp"

namespace llsim {

const ParamTable& declared_file_params()
{
  static const ParamTable t = {
      ParamSpec::text("path", "name of the file set (its shard files are under it)"),
      ParamSpec::quantity("bytes", Dimension::Size, "bytes of the whole set").positive(),
      ParamSpec::integer("shards", "files the set is split into, bytes / shards each")
          .defaults("1")
          .at_least(1)
          .at_most(100000),
      ParamSpec::integer("stripe_count", "targets each file is striped over (0: all); default: the service's")
          .may_be_absent()
          .at_least(0),
      ParamSpec::flag("local", "a copy on each server's own disks (node-local copies)").defaults("false"),
  };
  return t;
}

namespace {

// Creates one copy of a set; the first file that does not fit fails at its entry.
void create_set(StorageService& storage, const Params& e, const std::string& name_prefix, int64_t server)
{
  const std::string path = e.text("path");
  const int64_t shards   = e.integer("shards");
  const double bytes     = e.quantity("bytes") / static_cast<double>(shards);
  const int64_t stripes  = e.has("stripe_count") ? e.integer("stripe_count") : -1;
  for (int64_t k = 1; k <= shards; ++k) {
    const FileId f = server < 0 ? storage.new_file(stripes) : storage.new_local_file(static_cast<size_t>(server));
    for (const auto& [target, part] : storage.parts(f, 0, bytes)) {
      const IoOutcome taken = storage.account(f, target, part);
      if (!taken.ok())
        e.fail("bytes", "the declared files do not fit: " + taken.message);
    }
    storage.set_name(name_prefix + shard_name(path, k, shards), f);
  }
}

}  // namespace

void declare_files(StorageService& storage, const Params& p, const std::string& key)
{
  const YamlRef list = p.raw(key);
  if (!list.node().IsSequence())
    list.fail("expected a list of {path, bytes, shards, stripe_count, local}");
  for (size_t i = 0; i < list.node().size(); ++i) {
    const Params e(list.item(i), declared_file_params());
    if (e.text("path").empty())
      e.fail("path", "expected a name, e.g. models/llama3-70b");
    if (e.has("stripe_count") && e.flag("local"))
      e.fail("stripe_count", "a local copy lies on its server's disks: drop stripe_count or local");
    if (!e.flag("local")) {
      create_set(storage, e, "", -1);
      continue;
    }
    for (size_t s = 0; s < static_cast<size_t>(storage.servers().count); ++s)
      create_set(storage, e, FileNames::local_name(s, ""), static_cast<int64_t>(s));
  }
}

}  // namespace llsim
