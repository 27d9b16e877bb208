#include "sim/svc/meta_op.hpp"

#include "sim/svc/metadata_model.hpp"

namespace llsim {

namespace {
const char* const kOpNames[kMetaOps] = {"mkdir", "create", "open", "stat", "readdir", "unlink", "close"};
}

const char* meta_op_name(MetaOp op)
{
  return kOpNames[static_cast<size_t>(op)];
}

bool parse_meta_op(const std::string& name, MetaOp* op)
{
  for (size_t i = 0; i < kMetaOps; ++i)
    if (name == kOpNames[i]) {
      *op = static_cast<MetaOp>(i);
      return true;
    }
  return false;
}

bool meta_op_mutates(MetaOp op)
{
  return op == MetaOp::Mkdir || op == MetaOp::Create || op == MetaOp::Unlink || op == MetaOp::Close;
}

int inode_change(MetaOp op)
{
  if (op == MetaOp::Mkdir || op == MetaOp::Create)
    return 1;
  return op == MetaOp::Unlink ? -1 : 0;
}

}  // namespace llsim
