// Contract of a corpus placement (registry "corpus_placement", chosen with `impl:` under a
// preprocess phase's `placement:`): on which servers of the storage service that holds the
// corpus each corpus file's copies lie. Pure decision logic: the runtime
// (sim/preprocess/preprocess_run.hpp) creates the files where it says.
#pragma once
#include <cstdint>
#include <string>

namespace llsim {

class CorpusPlacement {
 public:
  struct Context {
    int64_t servers = 1;  // of the storage service holding the corpus
    std::string storage;  // its name, for messages
  };
  static constexpr const char* kInterfaceName = "corpus_placement";
  static constexpr const char* kHeader        = "sim/preprocess/corpus_placement.hpp";
  static constexpr const char* kSelector      = "impl";

  virtual ~CorpusPlacement()     = default;
  virtual int64_t copies() const = 0;  // of each corpus file
  // The server (0 .. servers - 1) of copy `copy` (< copies()) of corpus file `file`.
  virtual int64_t server(int64_t file, int64_t copy) const = 0;
};

}  // namespace llsim
