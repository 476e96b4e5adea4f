// Bytes from a file never reach the terminal as they are (issue 27): SQLite's
// schema error quoted into our one-line error and `info`'s meta and stats
// values used to print escape sequences, newlines and a forged `gpuprof:` line.
#include <sqlite3.h>

#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

const std::string kForged = "'x' || char(27) || '[2J' || char(10) || 'gpuprof: forged' || char(13) || char(155)";

void expect_no_terminal_control(const std::string& text) {
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  EXPECT_EQ(text.find("\xc2\x9b"), std::string::npos) << text;
  EXPECT_EQ(text.find("\ngpuprof: forged"), std::string::npos) << text;
}

class TerminalText : public WithSyntheticTrace {};

TEST_F(TerminalText, SchemaErrorTextIsOneCleanLine) {
  run_sql(trace_, "PRAGMA writable_schema = ON; INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) "
                  "VALUES ('table', " + kForged + ", 'x', 0, 'CREATE TABLE ' || " + kForged + " || '(');");
  for (const char* command : {"info", "report"}) {
    const auto result = gpuprof({command, trace_});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    expect_no_terminal_control(result.err);
  }
}

TEST_F(TerminalText, InfoPrintsMetaAndStatsValuesClean) {
  run_sql(trace_, "UPDATE meta SET value = " + kForged + " WHERE key IN ('host_name', 'command_line', 'tool_version');"
                  "INSERT INTO collector_stats(name, value, severity) VALUES (" + kForged + ", 1, 'info');");
  const auto result = gpuprof({"info", trace_});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  expect_no_terminal_control(result.out);
  EXPECT_NE(result.out.find("x?[2J?gpuprof: forged??"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace gpuprof::testing
