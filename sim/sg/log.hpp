// The parents of llsim's XBT log categories. Each source file that logs declares its own
// category under one of these with XBT_LOG_NEW_DEFAULT_SUBCATEGORY (after
// XBT_LOG_EXTERNAL_CATEGORY(parent)), named after its folder and file: llsim_svc_storage for
// sim/svc/storage.cpp, selected on the command line as --log=llsim.svc.storage:debug.
//   llsim          everything of llsim
//   llsim_sg       the SimGrid layer (sim/sg)
//   llsim_svc      services (sim/svc)
//   llsim_run      the simulation driver (sim/run)
//   llsim_train    the training runtime (sim/train)
//   llsim_mw       the master-worker runtime (sim/mw)
//   llsim_phase    phase kinds (models/phase and their runtimes)
#pragma once
#include <xbt/log.h>
