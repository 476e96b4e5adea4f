// `export` reads columns by name and says what it left out, as `report` does
// (issue 27: a kernels table with its columns in another order exported 0 of
// its kernels, and invalid rows were dropped without a word).
#include <sqlite3.h>

#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

class ExportByName : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "3", "--devices", "1"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const auto exported = gpuprof({"export", trace_, "--chrome-trace", folder_.file("before.json")});
    ASSERT_EQ(exported.exit_code, 0) << exported.err;
    kernels_before_ = occurrences(read_file(folder_.file("before.json")), R"("cat":"kernel")");
    ASSERT_GT(kernels_before_, 0U);
  }
  TemporaryFolder folder_;
  std::string trace_;
  std::size_t kernels_before_ = 0;
};

TEST_F(ExportByName, ColumnsInAnotherOrderExportEveryKernel) {
  run_sql(trace_, "DROP TRIGGER IF EXISTS gpuprof_chunks_stale_after_insert_on_kernels;"
                  "DROP TRIGGER IF EXISTS gpuprof_chunks_stale_after_update_on_kernels;"
                  "DROP TRIGGER IF EXISTS gpuprof_chunks_stale_after_delete_on_kernels;"
                  "CREATE TABLE k2 AS SELECT name_id, end_ns, start_ns, device, context, stream, correlation_id, "
                  "grid_x, grid_y, grid_z, block_x, block_y, block_z, registers_per_thread, static_shared_bytes, "
                  "dynamic_shared_bytes, graph_node_id, mangled_name_id FROM kernels;"
                  "DROP TABLE kernels; ALTER TABLE k2 RENAME TO kernels; DELETE FROM event_chunks;");
  const auto result = gpuprof({"export", trace_, "--chrome-trace", folder_.file("after.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(occurrences(read_file(folder_.file("after.json")), R"("cat":"kernel")"), kernels_before_);
}

TEST_F(ExportByName, DroppedRowsAreReportedOnStderr) {
  run_sql(trace_, "UPDATE kernels SET name_id = 999999 WHERE rowid <= 5");
  const auto result = gpuprof({"export", trace_, "--chrome-trace", folder_.file("after.json")});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("load.invalid.kernels.name_id = 5"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace gpuprof::testing
