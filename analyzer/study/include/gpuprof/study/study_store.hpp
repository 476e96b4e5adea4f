#pragma once

// The study file (STUDY_DIR/study.sqlite): meta, configurations, runs, results.

#include <string>
#include <vector>

#include "gpuprof/study/study_data.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::study {

// Throws TraceError::bad_input naming the first of `members` (files and
// folders of the study folder `folder`) that a symbolic link leads out of it:
// sweep writes them, and would write through the link to a file anywhere.
void refuse_links_out_of_study(const std::string& folder, const std::vector<std::string>& members);

class StudyStore {
 public:
  // Creates a new study file (the file must not exist).
  static StudyStore create(const std::string& path, const std::map<std::string, std::string>& meta);
  // Opens an existing one; throws TraceError::bad_input when it is not a study
  // file or was written by a newer gpuprof.
  static StudyStore open(const std::string& path, bool writable);

  std::string meta_value(const std::string& key);
  void add_configuration(const Configuration& configuration);
  // Starts (or restarts) the run with this key: any earlier row and result for it are dropped.
  std::int64_t begin_run(const std::string& configuration, std::int64_t repeat, RunKind kind, std::int64_t start_ns);
  void finish_run(const RunRecord& run);
  void save_result(std::int64_t run_id, const RunResult& result);
  StudyData load();

 private:
  explicit StudyStore(sqlite::Database database) : database_(std::move(database)) {}
  void check_format();
  sqlite::Database database_;
};

}  // namespace gpuprof::study
