#include "sim/train/checkpoint_mode.hpp"

#include <algorithm>

namespace llsim {

const char* io_kind_name(IoKind kind)
{
  switch (kind) {
  case IoKind::PfsWrite:
    return "pfs_write";
  case IoKind::PfsRead:
    return "pfs_read";
  case IoKind::LocalWrite:
    return "local_write";
  case IoKind::LocalRead:
    return "local_read";
  case IoKind::PartnerCopy:
    return "partner_copy";
  }
  return "?";
}

bool partners_survive(const std::set<size_t>& lost, size_t writers, size_t offset)
{
  return std::none_of(lost.begin(), lost.end(), [&](size_t w) { return lost.count((w + offset) % writers) != 0; });
}

}  // namespace llsim
