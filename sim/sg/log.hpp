// The parents of llsim's XBT log categories. Each source file that logs declares its own
// category under one of these with XBT_LOG_NEW_DEFAULT_SUBCATEGORY (after
// XBT_LOG_EXTERNAL_CATEGORY(parent)), named after its room (its first folder under sim/) and
// file, under its room's parent: llsim_svc_storage for sim/svc/storage.cpp, llsim_serve_batcher
// for sim/serve/engine/batcher.cpp, selected on the command line as
// --log=llsim.svc.storage:debug. A model file under models/<family>/ is named after its family
// and file, under the parent of the area it decides for: llsim_serve_system_mooncake
// (models/serve_system/mooncake.cpp) is under llsim_serve. tests/llsim/test_log_categories.py
// holds every file to this rule, and every parent to holding a category.
// At debug level the runtimes log their decisions; debug logging costs nothing when off as long
// as every string is built inside the XBT_DEBUG arguments (XBT checks the threshold first).
//   llsim          everything of llsim
//   llsim_svc      services (sim/svc)
//   llsim_run      the simulation driver (sim/run)
//   llsim_train    the training runtime (sim/train)
//   llsim_mw       the master-worker runtime (sim/mw)
//   llsim_serve    serving (sim/serve, models/serve_system)
//   llsim_ingest   ingest (sim/ingest)
//   llsim_preprocess  preprocessing (sim/preprocess)
//   llsim_loads    the transfer and requests phases (sim/loads)
#pragma once
#include <xbt/log.h>
