// `--log=CATEGORY:LEVEL`: llsim's log categories are named with dots after the folder and file
// they belong to (llsim.svc.storage is sim/svc/storage.cpp; llsim.svc covers every service).
// SimGrid's XBT names categories without dots, so llsim.svc.storage is the XBT category
// llsim_svc_storage. A setting already in XBT's own form ("root.thresh:info") is passed through.
#pragma once
#include <string>

namespace llsim {

// The XBT form of a setting. Throws std::invalid_argument, naming what is expected, when the
// level is not one of trace, debug, verbose, info, warning, error, critical, or when no such
// category exists (a mistyped one would otherwise be ignored by XBT).
std::string xbt_log_setting(const std::string& setting);

}  // namespace llsim
