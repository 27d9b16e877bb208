#include "sim/sg/log.hpp"

XBT_LOG_NEW_CATEGORY(llsim, "llsim");
XBT_LOG_NEW_SUBCATEGORY(llsim_svc, llsim, "services: storage, forwarding, metadata, memory pools");
XBT_LOG_NEW_SUBCATEGORY(llsim_run, llsim, "the simulation driver");
XBT_LOG_NEW_SUBCATEGORY(llsim_train, llsim, "the training runtime");
// Master-worker: task-to-worker assignments, failures noticed, re-executions, checkpoints (sim/mw).
XBT_LOG_NEW_SUBCATEGORY(llsim_mw, llsim, "the master-worker runtime");
// Serving: routing, admission, preemption, KV eviction and hand-offs (sim/serve, models/serve_system).
XBT_LOG_NEW_SUBCATEGORY(llsim_serve, llsim, "the serving runtime and serve systems");
// Ingest: where each operation's RPCs go and the directory cache's hits and misses (sim/ingest).
XBT_LOG_NEW_SUBCATEGORY(llsim_ingest, llsim, "the ingest runtime");
// Preprocess: corpus placement and stage tasks (sim/preprocess).
XBT_LOG_NEW_SUBCATEGORY(llsim_preprocess, llsim, "the preprocess runtime");
// Phases that load services directly: transfers and request streams (sim/loads).
XBT_LOG_NEW_SUBCATEGORY(llsim_loads, llsim, "the transfer and requests phases");
