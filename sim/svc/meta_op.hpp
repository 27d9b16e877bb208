// The operations of a metadata namespace.
#pragma once
#include <cstddef>
#include <string>

namespace llsim {

enum class MetaOp { Mkdir, Create, Open, Stat, Readdir, Unlink, Close };
constexpr size_t kMetaOps = 7;
const char* meta_op_name(MetaOp op);
// The operation named `name`; false when there is none.
bool parse_meta_op(const std::string& name, MetaOp* op);
// Whether it changes the namespace (and so appends a journal record): mkdir, create, unlink, and
// close (a file's size and times).
bool meta_op_mutates(MetaOp op);

}  // namespace llsim
