// One-row edits of a valid trace (issue 16): every id, enum, device and time
// from the file is checked on load; a row that breaks a rule is left out and
// counted as a load.invalid.<table>.<column> error the report shows, and no
// edit crashes report, compare or export or makes them allocate by a value.
#include <gtest/gtest.h>

#include <string>

#include "hostile_trace.hpp"

namespace gpuprof::testing {
namespace {

using HostileRows = HostileTrace;

// The table without its NOT NULL and type constraints, as a hand-made file could be.
std::string unconstrained(const std::string& table) {
  return "CREATE TABLE loose AS SELECT * FROM " + table + "; DROP TABLE " + table + "; ALTER TABLE loose RENAME TO " +
         table + ";";
}

TEST_F(HostileRows, ValidTraceHasNoLoadProblems) {
  for (const auto& line : outputs().warnings) EXPECT_FALSE(line.starts_with("load.invalid")) << line;
}

TEST_F(HostileRows, KernelNameIdOnePastTheLastString) {
  edit("UPDATE kernels SET name_id = (SELECT max(id) + 1 FROM strings) WHERE rowid = 1");
  expect_problem(outputs(), "load.invalid.kernels.name_id = 1");
}

TEST_F(HostileRows, CopyKindsOutOfRange) {
  edit("UPDATE memcpys SET copy_kind = 1000 WHERE rowid = 1; UPDATE memcpys SET copy_kind = -3 WHERE rowid = 2");
  expect_problem(outputs(), "load.invalid.memcpys.copy_kind = 2");
}

TEST_F(HostileRows, NegativeStringIdIsLeftOutAndOthersStillLoad) {
  edit("INSERT INTO strings VALUES (-1, 'x')");
  const auto output = outputs();
  expect_problem(output, "load.invalid.strings.id = 1");
  for (const auto& line : output.warnings) EXPECT_FALSE(line.starts_with("load.invalid.kernels")) << line;
}

TEST_F(HostileRows, NoStringsAtAllLeavesOutEveryNamedRow) {
  const auto kernels = count("SELECT count(*) FROM kernels");
  const auto api_calls = count("SELECT count(*) FROM api_calls");
  ASSERT_GT(kernels, 0);
  edit("DELETE FROM strings");
  const auto output = outputs();
  expect_problem(output, "load.invalid.kernels.name_id = " + std::to_string(kernels));
  expect_problem(output, "load.invalid.api_calls.name_id = " + std::to_string(api_calls));
}

// 2e8 and 2^62: memory follows the row count, so neither allocates by its value.
TEST_F(HostileRows, HugeStringIds) {
  edit("INSERT INTO strings VALUES (200000000, 'x'); INSERT INTO strings VALUES (4611686018427387904, 'y');"
       "UPDATE kernels SET name_id = 4611686018427387904 WHERE rowid = 1");
  const auto output = outputs();
  expect_problem(output, "load.invalid.strings.id = 2");
  expect_problem(output, "load.invalid.kernels.name_id = 1");
}

TEST_F(HostileRows, TextNullAndRealInIntegerColumns) {
  edit(unconstrained("kernels") +
       "UPDATE kernels SET start_ns = 'abc' WHERE rowid = 1; UPDATE kernels SET end_ns = NULL WHERE rowid = 2;"
       "UPDATE kernels SET device = 1.5 WHERE rowid = 3; UPDATE kernels SET stream = 'x' WHERE rowid = 4;"
       "UPDATE kernels SET name_id = 'n' || name_id WHERE rowid = 5");
  const auto output = outputs();
  expect_problem(output, "load.invalid.kernels.start_ns = 1");
  expect_problem(output, "load.invalid.kernels.end_ns = 1");
  expect_problem(output, "load.invalid.kernels.device = 1");
  expect_problem(output, "load.invalid.kernels.stream = 1");
  expect_problem(output, "load.invalid.kernels.name_id = 1");
}

TEST_F(HostileRows, TimesThatEndBeforeTheyStartOrAreNegative) {
  edit("UPDATE kernels SET end_ns = start_ns - 10 WHERE rowid = 1; UPDATE api_calls SET start_ns = -5 WHERE rowid = 1;"
       "UPDATE memcpys SET end_ns = -1 WHERE rowid = 1");
  const auto output = outputs();
  expect_problem(output, "load.invalid.kernels.end_ns = 1");
  expect_problem(output, "load.invalid.api_calls.start_ns = 1");
  expect_problem(output, "load.invalid.memcpys.end_ns = 1");
}

TEST_F(HostileRows, DevicesOutOfRange) {
  edit("UPDATE kernels SET device = -1 WHERE rowid = 1; UPDATE kernels SET device = 1099511627776 WHERE rowid = 2;"
       "UPDATE devices SET id = 1099511627776 WHERE id = 1");
  const auto output = outputs();
  expect_problem(output, "load.invalid.kernels.device = 2");
  expect_problem(output, "load.invalid.devices.id = 1");
}

TEST_F(HostileRows, UnknownEnumCodes) {
  ASSERT_GT(count("SELECT count(*) FROM ranges"), 0);
  edit("UPDATE api_calls SET kind = 7 WHERE rowid = 1; UPDATE memcpys SET src_memory_kind = 77 WHERE rowid = 1;"
       "UPDATE ranges SET on_gpu = 5 WHERE rowid = 1; UPDATE ranges SET domain_id = -4 WHERE rowid = 2");
  const auto output = outputs();
  expect_problem(output, "load.invalid.api_calls.kind = 1");
  expect_problem(output, "load.invalid.memcpys.src_memory_kind = 1");
  expect_problem(output, "load.invalid.ranges.on_gpu = 1");
  expect_problem(output, "load.invalid.ranges.domain_id = 1");
}

// Schema 1.2's collectives: each id, device, size and group size is checked like every other table's.
TEST_F(HostileRows, BrokenCollectiveRows) {
  const std::string kernel = "(SELECT device FROM kernels WHERE rowid = 1), (SELECT correlation_id FROM kernels "
                             "WHERE rowid = 1)";
  edit(unconstrained("collectives") +
       "INSERT INTO collectives VALUES (" + kernel + ", 0, 8, 8, 32, 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (-1, 5, 0, 8, 8, 32, 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, NULL, 0, 8, 8, 32, 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, (SELECT max(id) + 1 FROM strings), 8, 8, 32, 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, 0, -8, 8, 32, 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, 0, 8, 8, 'x', 32, NULL, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, 0, 8, 8, 32, 32, -3, 2, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, 0, 8, 8, 32, 32, NULL, 0, NULL, NULL, NULL);"
       "INSERT INTO collectives VALUES (0, 5, 0, 8, 8, 32, 32, NULL, 2, NULL, NULL, 4611686018427387904);");
  const auto output = outputs();
  expect_problem(output, "load.invalid.collectives.device = 1");
  expect_problem(output, "load.invalid.collectives.correlation_id = 1");
  expect_problem(output, "load.invalid.collectives.name_id = 1");
  expect_problem(output, "load.invalid.collectives.in_elements = 1");
  expect_problem(output, "load.invalid.collectives.in_bytes = 1");
  expect_problem(output, "load.invalid.collectives.dtype_id = 1");
  expect_problem(output, "load.invalid.collectives.group_size = 1");
  expect_problem(output, "load.invalid.collectives.group_ranks_id = 1");
}

// The exporter reads derived gaps back from the file: a broken one is left out.
TEST_F(HostileRows, BrokenDerivedRowsDoNotReachTheExport) {
  edit("INSERT INTO gaps VALUES (0, -1, 0, 100, 50, 'x'); INSERT INTO steps VALUES (NULL, 0, 1, 500, 10, -1, 7)");
  const auto output = outputs();
  const auto& exported = output.texts.back().second;
  EXPECT_EQ(exported.find("\"x\""), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::testing
