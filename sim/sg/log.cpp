#include "sim/sg/log.hpp"

XBT_LOG_NEW_CATEGORY(llsim, "llsim");
XBT_LOG_NEW_SUBCATEGORY(llsim_sg, llsim, "the SimGrid layer");
XBT_LOG_NEW_SUBCATEGORY(llsim_svc, llsim, "services: storage, forwarding, metadata, memory pools, faults");
XBT_LOG_NEW_SUBCATEGORY(llsim_run, llsim, "the simulation driver");
XBT_LOG_NEW_SUBCATEGORY(llsim_train, llsim, "the training runtime");
XBT_LOG_NEW_SUBCATEGORY(llsim_mw, llsim, "the master-worker runtime");
XBT_LOG_NEW_SUBCATEGORY(llsim_phase, llsim, "phase kinds");
