// Files a scenario declares on a storage service as already there when the run starts (a model's
// weights uploaded before serving, a dataset), each entry a file set:
//
//   pfs: {kind: storage, servers: oss,
//         files: [{path: models/llama3-70b, bytes: 141GB, shards: 30, stripe_count: 0},
//                 {path: models/llama3-70b, bytes: 141GB, local: true}]}   on every server's disks
//
// A set of `shards` files of bytes / shards each is named as Hugging Face splits a checkpoint
// (files/file_names.hpp); its bytes take capacity on the targets its stripes fall on, and a set that
// does not fit is a located error. `local: true` puts a copy on each server's own disks (a
// node-local copy, for a storage service over the compute nodes' disks).
#pragma once
#include "sim/core/params.hpp"

namespace llsim {

class StorageService;

const ParamTable& declared_file_params();

// Creates the sets listed at `key` of `p` (a list of declared_file_params() sections).
void declare_files(StorageService& storage, const Params& p, const std::string& key);

}  // namespace llsim
