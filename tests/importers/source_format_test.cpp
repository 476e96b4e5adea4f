#include <gtest/gtest.h>

#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using importers::detect_source_format;
using importers::SourceFormat;

TEST(SourceFormat, RecognisesFilesByContent) {
  testing::TemporaryFolder folder;
  testing::write_file(folder.file("a.bin"), R"json(  {"traceEvents": []})json");
  EXPECT_EQ(detect_source_format(folder.file("a.bin")), SourceFormat::kineto);
  testing::write_gzip_file(folder.file("b.bin"), R"json({"traceEvents": []})json");
  EXPECT_EQ(detect_source_format(folder.file("b.bin")), SourceFormat::kineto);
  testing::write_sqlite_file(folder.file("c.bin"),
                             "CREATE TABLE StringIds (id INTEGER, value TEXT);"
                             "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER);");
  EXPECT_EQ(detect_source_format(folder.file("c.bin")), SourceFormat::nsys);
  testing::write_sqlite_file(folder.file("d.bin"),
                             "CREATE TABLE StringTable (_id_ INTEGER, value TEXT);"
                             "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER);");
  EXPECT_EQ(detect_source_format(folder.file("d.bin")), SourceFormat::nvprof);
}

TEST(SourceFormat, RefusesOtherFilesWithTheirName) {
  testing::TemporaryFolder folder;
  testing::write_sqlite_file(folder.file("other.sqlite"), "CREATE TABLE users (name TEXT);");
  testing::write_file(folder.file("notes.txt"), "hello");
  testing::write_file(folder.file("empty.json"), "");
  for (const char* name : {"other.sqlite", "notes.txt", "empty.json", "missing.json"}) {
    try {
      detect_source_format(folder.file(name));
      ADD_FAILURE() << name << " was accepted";
    } catch (const TraceError& error) {
      EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
      EXPECT_NE(std::string(error.what()).find(name), std::string::npos) << error.what();
    }
  }
}

TEST(SourceFormat, ParsesFormatNames) {
  EXPECT_EQ(importers::parse_source_format("nsys"), SourceFormat::nsys);
  EXPECT_EQ(importers::parse_source_format("kineto"), SourceFormat::kineto);
  EXPECT_EQ(importers::parse_source_format("nvprof"), SourceFormat::nvprof);
  EXPECT_EQ(importers::parse_source_format("csv"), std::nullopt);
}

}  // namespace
}  // namespace gpuprof
