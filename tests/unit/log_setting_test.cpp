#include "sim/sg/log_setting.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using namespace llsim;

TEST_CASE("log settings: llsim's dotted categories become XBT's", "[log_setting]")
{
  CHECK(xbt_log_setting("llsim.svc.storage:debug") == "llsim_svc_storage.thresh:debug");
  CHECK(xbt_log_setting("llsim:info") == "llsim.thresh:info");
  CHECK(xbt_log_setting("root.thresh:warning") == "root.thresh:warning");  // XBT's own form
  CHECK_THROWS_WITH(xbt_log_setting("llsim.svc:loud"), Catch::Contains("unknown level 'loud'"));
  CHECK_THROWS_WITH(xbt_log_setting("llsim"), Catch::Contains("expected CATEGORY:LEVEL"));
  CHECK(xbt_log_setting("s4u.host:debug") == "s4u_host.thresh:debug");  // SimGrid's categories too
  CHECK_THROWS_WITH(xbt_log_setting("s4u.hots:debug"),
                    Catch::Contains("no log category 's4u.hots': did you mean 's4u.host'?"));
  // A file's own underscores stay in the suggestion, as docs/developing.md writes the categories.
  CHECK_THROWS_WITH(xbt_log_setting("llsim.mw.task_i:debug"), Catch::Contains("did you mean 'llsim.mw.task_io'?"));
}
