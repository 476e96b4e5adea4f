// How the writer treats the file system: atomic publication, no partial files,
// no silent overwrite, and crash-safe commits for the collector.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

namespace fs = std::filesystem;

std::size_t files_in(const fs::path& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

TEST(TraceWriterBehaviour, UnfinishedAtomicWriterLeavesNothing) {
  testing::TemporaryFolder folder;
  {
    TraceWriter writer({.path = folder.file("out.sqlite")});
    writer.add(KernelRow{.start_ns = 1, .end_ns = 2, .name = writer.intern("k")});
    writer.flush();
    EXPECT_FALSE(fs::exists(folder.file("out.sqlite"))) << "published before finish()";
  }
  EXPECT_EQ(files_in(folder.path()), 0U);
}

TEST(TraceWriterBehaviour, ExistingFileIsNotOverwrittenWithoutForce) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("out.sqlite");
  testing::write_file(path, "precious");
  try {
    TraceWriter writer({.path = path});
    FAIL() << "writer accepted an existing file";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_NE(std::string(error.what()).find("--force"), std::string::npos);
  }
  EXPECT_EQ(testing::read_file(path), "precious");
  TraceWriter forced({.path = path, .overwrite = true});
  forced.finish();
  EXPECT_NO_THROW(TraceFile{path});
  EXPECT_EQ(files_in(folder.path()), 1U);
}

TEST(TraceWriterBehaviour, MissingFolderIsBadInput) {
  testing::TemporaryFolder folder;
  try {
    TraceWriter writer({.path = folder.file("no/such/folder/out.sqlite")});
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_NE(std::string(error.what()).find("does not exist"), std::string::npos);
  }
}

TEST(TraceWriterBehaviour, SmallTransactionsKeepEveryRow) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("out.sqlite");
  TraceWriter writer({.path = path, .rows_per_transaction = 7});
  for (int i = 0; i < 1000; ++i) writer.add(MemsetRow{.device = i % 3, .start_ns = i, .end_ns = i + 1});
  EXPECT_EQ(writer.rows_written(), 1000U);
  writer.finish();
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.memsets.size(), 1000U);
  EXPECT_EQ(model.memset_streams.size(), 3U);
}

// The collector's mode: a process killed with SIGKILL leaves a file that opens
// and passes integrity_check, holding everything flushed before the kill.
// With background writes too: flush() returns only once the rows are committed.
TEST(TraceWriterBehaviour, CrashSafeFileSurvivesSigkill) {
  for (const bool background : {false, true}) {
    SCOPED_TRACE(background ? "background writes" : "writes in the caller's thread");
    testing::TemporaryFolder folder;
    const auto path = folder.file("killed.sqlite");
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      TraceWriter writer({.path = path, .durability = Durability::crash_safe, .background_writes = background});
      const auto name = writer.intern("k");
      for (int i = 0; i < 5000; ++i) writer.add(KernelRow{.start_ns = i, .end_ns = i + 1, .name = name});
      writer.flush();
      (void)!::write(ready[1], "x", 1);
      for (long i = 0;; ++i) writer.add(KernelRow{.start_ns = -i, .end_ns = 0, .name = name});  // uncommitted
    }
    char byte = 0;
    ASSERT_EQ(::read(ready[0], &byte, 1), 1);
    ::usleep(20'000);
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(ready[0]);
    ::close(ready[1]);
    ASSERT_TRUE(WIFSIGNALED(status));
    {
      // A read-write open rolls back the unfinished transaction, as the sqlite3 shell would.
      sqlite::Database database(path, sqlite::OpenMode::read_write);
      EXPECT_EQ(database.query_int("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check != 'ok'"), 0);
    }
    TraceFile file(path);
    EXPECT_EQ(file.counts()[0].rows, 5000);
  }
}

// Kernel names are demangled in one place, the writer, whoever produces them.
TEST(TraceWriterBehaviour, KernelNamesAreStoredDemangledWithTheMangledOneBeside) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("out.sqlite");
  TraceWriter writer({.path = path});
  const auto ours = writer.intern_kernel_name("_Z10add_kernelPfPKfi");
  EXPECT_EQ(writer.intern_kernel_name("_Z10add_kernelPfPKfi"), ours);
  const auto plain = writer.intern_kernel_name("volta_sgemm_128x64_nn");
  EXPECT_FALSE(plain.mangled);
  const auto broken = writer.intern_kernel_name("_Z10add_ker");  // does not demangle: kept, nothing beside it
  EXPECT_FALSE(broken.mangled);
  // A source's own demangling wins over ours (nsys spells templates its way).
  const auto sources = writer.intern_kernel_name("_Z3foov", "foo<nsys spelling>()");
  ASSERT_TRUE(ours.mangled && sources.mangled);
  writer.finish();
  TraceFile file(path);
  const auto strings = file.strings().values;
  EXPECT_EQ(strings.at(ours.name), "add_kernel(float*, float const*, int)");
  EXPECT_EQ(strings.at(*ours.mangled), "_Z10add_kernelPfPKfi");
  EXPECT_EQ(strings.at(plain.name), "volta_sgemm_128x64_nn");
  EXPECT_EQ(strings.at(broken.name), "_Z10add_ker");
  EXPECT_EQ(strings.at(sources.name), "foo<nsys spelling>()");
  EXPECT_EQ(strings.at(*sources.mangled), "_Z3foov");
}

}  // namespace
}  // namespace gpuprof::trace
