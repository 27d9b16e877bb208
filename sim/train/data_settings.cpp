#include "sim/train/data_settings.hpp"

#include "sim/core/text.hpp"
#include "sim/svc/directory.hpp"

#include <algorithm>

namespace llsim {

const ParamTable& data_params()
{
  static const ParamTable t = {
      ParamSpec::text("storage", "storage service holding the dataset"),
      ParamSpec::text("dataset", "file set there: a preprocess phase's <phase>/output, or files declared on the "
                                 "service"),
      ParamSpec::quantity("tokens_per_iteration", Dimension::Number, "tokens in one iteration's global batch")
          .positive(),
      ParamSpec::quantity("bytes_per_token", Dimension::Size, "bytes of one token in the dataset (4: 32-bit ids)")
          .defaults("4B")
          .positive(),
      ParamSpec::quantity("sample", Dimension::Size, "bytes of one read request (a sample)")
          .defaults("1MiB")
          .positive(),
      ParamSpec::integer("prefetch", "batches read ahead of the iteration the job needs (0: read on demand)")
          .defaults("2")
          .at_least(0),
      ParamSpec::integer("readers", "hosts of the job that read a slice of each batch (0: one per data-parallel "
                                    "replica)")
          .defaults("0")
          .at_least(0),
      ParamSpec::integer("in_flight", "read requests each reader keeps on their way").defaults("4").at_least(1),
  };
  return t;
}

std::optional<DataSpec> read_data_settings(const Params& phase, ServiceDirectory& services, const GroupSpec& nodes,
                                           int64_t data_parallel)
{
  if (!phase.has("data"))
    return std::nullopt;
  const Params p = phase.section("data", data_params());
  DataSpec spec;
  spec.storage = &services.get<StorageService>(p, "storage");
  spec.dataset = p.text("dataset");
  if (!spec.storage->names().known(spec.dataset))
    p.fail("dataset", "no file set '" + spec.dataset + "' on '" + spec.storage->name() +
                          "': expected a preprocess phase's output (<phase>/output) on that service, or files "
                          "declared there");
  spec.batch_B = p.quantity("tokens_per_iteration") * p.quantity("bytes_per_token");
  // Files declared on the service are there now; a phase's output is written later.
  const double declared_B = spec.storage->set_B(spec.dataset);
  if (declared_B > 0 && declared_B < spec.batch_B)
    p.fail("tokens_per_iteration", "one batch is " + format_bytes(spec.batch_B) + " but the dataset '" + spec.dataset +
                                       "' declared on '" + spec.storage->name() + "' holds " +
                                       format_bytes(declared_B));
  spec.sample_B        = p.quantity("sample");
  spec.prefetch        = p.integer("prefetch");
  spec.in_flight       = static_cast<size_t>(p.integer("in_flight"));
  const int64_t wanted = p.integer("readers") > 0 ? p.integer("readers") : std::min(data_parallel, nodes.count);
  if (wanted > nodes.count)
    p.fail("readers", std::to_string(wanted) + " readers, but the job has " + std::to_string(nodes.count) + " nodes");
  for (int64_t r = 0; r < wanted; ++r)
    spec.readers.push_back(nodes.host(r * (nodes.count / wanted)));
  return spec;
}

}  // namespace llsim
