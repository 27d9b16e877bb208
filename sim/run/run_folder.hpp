// A run's output folder appears whole or not at all. The run writes into a staging folder beside
// it (`.<name>.llsim-new-<pid>-XXXXXX`, on the same file system), and publish() puts that in place of
// the folder in one step: a rename when there was none, an exchange of the two (renameat2's
// RENAME_EXCHANGE) when a previous run is there, whose files are then removed. So a folder never
// mixes two runs' files, and a run killed at any point leaves the previous run whole, or nothing.
// Where the file system cannot exchange, the previous run is renamed aside first; a kill between
// the two renames leaves no folder, the previous run aside as `.<name>.llsim-old-<pid>-XXXXXX`.
// Staging and set-aside folders of killed runs are removed by the next run into the same folder
// (not those of a run still going: of two runs at once, the later to publish stays); a run that
// fails removes its own. An `out` that is a link to a folder is replaced where it points.
#pragma once
#include <string>

namespace llsim {

class RunFolder {
 public:
  // Throws ConfigError when `out` cannot hold a run: see check_output_dir, and a folder that
  // holds files but no summary.json (not a run of llsim's, which publish() would replace).
  explicit RunFolder(const std::string& out);
  ~RunFolder();  // a run that did not publish leaves nothing behind
  RunFolder(const RunFolder&)            = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  const std::string& staging() const { return staging_; }
  // Replaces `out` with the staging folder; throws SimulationError when the file system refuses.
  void publish();

 private:
  std::string out_, staging_;
  bool published_ = false;
};

}  // namespace llsim
