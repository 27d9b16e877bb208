// Bytes of the blocks touched by `written_B` bytes of writes (whole blocks).
#pragma once
#include "sim/train/file_state.hpp"

#include <cmath>

namespace llsim {

inline double changed_blocks_B(const FileWorkload& f, double written_B)
{
  return std::ceil(written_B / f.block_B) * f.block_B;
}

}  // namespace llsim
