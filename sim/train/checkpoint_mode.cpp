#include "sim/train/checkpoint_mode.hpp"

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

}  // namespace llsim
