// Issue 40: the readers and writers added since the second attack (link files,
// job folders, the CLI reference, values CLI11 took for lists) follow the
// trace files' rules: regular files only, one line and exit 2 for bad input,
// inputs never written over, nothing created beside an input.

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "cli_test_support.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLinkFile = R"(# nThread 1 nGpus 2 minBytes 8 maxBytes 1048576 step: 1024(factor)
#  Rank  0 Group  0 Pid  9 on host device  0 [0000:07:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  9 on host device  1 [0000:08:00] NVIDIA H100 80GB HBM3
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           8             2     float     sum      -1    20.00    0.00    0.00      0    22.00    0.00    0.00      0
     1048576        262144     float     sum      -1    40.00   26.21   26.21      0    40.00   26.21   26.21      0
)";

class HostileReaders : public WithSyntheticTrace {
 protected:
  ProcessResult predict_with_link(const std::string& link, std::vector<std::string> more = {}) {
    std::vector<std::string> arguments{"predict", trace_, "--gpus", "2", "--grad-bytes", "1000000", "--link-file", link};
    arguments.insert(arguments.end(), more.begin(), more.end());
    return gpuprof(arguments);
  }
};

TEST_F(HostileReaders, ALinkFileIsARegularFileOfSensibleSize) {
  const auto good = folder_.file("nccl.log");
  write_file(good, kLinkFile);
  ASSERT_EQ(predict_with_link(good).exit_code, 0) << predict_with_link(good).err;
  const auto fifo = folder_.file("fifo.log");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_bad_input(predict_with_link(fifo), fifo, "is a FIFO");  // blocked forever before
  expect_bad_input(predict_with_link(folder_.path().string()), folder_.path().string(), "directory");
  const auto long_line = folder_.file("long.log");
  write_file(long_line, "#" + std::string(40'000, ' ') + "\n" + kLinkFile);  // SIGSEGV in std::regex before
  expect_bad_input(predict_with_link(long_line), long_line, "line 1 is longer than");
  const auto lut = folder_.file("AR_GPU99999999999_1M_LUT");
  write_file(lut, "size(B),count,type,time(ns),busbw(GB/s)\n1048576,262144,float,44210,23.72\n");
  expect_bad_input(predict_with_link(lut), lut, "a GPU count is at most");  // "internal error" before
}

TEST_F(HostileReaders, AnOutputNamingALinkFileIsRefusedWithOrWithoutForce) {
  const auto link_file = folder_.file("nccl.log");
  write_file(link_file, kLinkFile);
  const auto symbolic = folder_.file("symbolic.txt"), hard = folder_.file("hard.txt");
  fs::create_symlink(link_file, symbolic);
  fs::create_hard_link(link_file, hard);
  for (const auto& output : {link_file, symbolic, hard}) {
    for (const bool force : {false, true}) {
      std::vector<std::string> more{"-o", output};
      if (force) more.push_back("--force");
      expect_bad_input(predict_with_link(link_file, more), output, "is the input");
    }
  }
  EXPECT_EQ(read_file(link_file), kLinkFile);
}

TEST(HostileReaderOutputs, TheCliReferenceIsWrittenLikeEveryOutput) {
  TemporaryFolder folder;
  const auto fifo = folder.file("fifo"), link = folder.file("link"), elsewhere = folder.file("elsewhere");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(elsewhere, link);
  expect_bad_input(gpuprof({"--cli-reference", "bash", fifo}), fifo, "is a FIFO");  // blocked forever before
  expect_bad_input(gpuprof({"--cli-reference", "bash", link}), link, "is a symbolic link");
  EXPECT_FALSE(fs::exists(elsewhere)) << "written through the link";
  expect_bad_input(gpuprof({"--cli-reference", "bash", folder.path().string()}), folder.path().string(), "folder");
  const auto page = folder.file("gpuprof.1");
  ASSERT_EQ(gpuprof({"--cli-reference", "man", page}).exit_code, 0);
  EXPECT_NE(read_file(page).find(".TH"), std::string::npos);
}

TEST_F(HostileReaders, AnExistingFolderAsOutputIsOneLineWithForceToo) {
  const auto out = folder_.file("out");
  fs::create_directory(out);
  expect_bad_input(gpuprof({"report", trace_, "-o", out, "--force"}), out, "is a folder");
  expect_bad_input(gpuprof({"export", trace_, "--chrome-trace", out, "--force"}), out, "is a folder");
}

TEST_F(HostileReaders, BracketedArgumentsStayAsTyped) {
  const auto bracketed = folder_.file("[b]");
  fs::copy_file(trace_, bracketed);
  fs::copy_file(trace_, folder_.file("b"));  // what CLI11 made of '[b]'
  const auto old = fs::current_path();
  fs::current_path(folder_.path());
  const auto report = gpuprof({"report", "[b]", "--format", "json"});
  const auto missing = gpuprof({"report", "[absent,x]"});
  fs::current_path(old);
  EXPECT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("[b]"), std::string::npos) << report.out.substr(0, 2000);
  expect_bad_input(missing, "[absent,x]", "no such file");
}

TEST_F(HostileReaders, ABracketedPatternStaysOnePattern) {
  const auto report = gpuprof({"report", trace_, "--comm-pattern", "[nccl]"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  // The class [nccl] matches kernels that the word nccl, which CLI11 made of it, does not.
  EXPECT_NE(report.out.find("--comm-pattern '[nccl]'"), std::string::npos) << report.out.substr(0, 3000);
}

TEST_F(HostileReaders, ASymbolicLinkLoopIsBadInput) {
  const auto a = folder_.file("a.sqlite"), b = folder_.file("b.sqlite");
  fs::create_symlink(b, a);
  fs::create_symlink(a, b);
  for (const char* command : {"report", "info", "export"}) {
    const auto result = gpuprof({command, a});
    EXPECT_EQ(result.exit_code, 2) << command << ": " << result.err;
    EXPECT_EQ(result.err.find("internal error"), std::string::npos) << result.err;
  }
  const auto study_folder = folder_.file("study");
  fs::create_directory(study_folder);
  fs::create_symlink(study_folder + "/study.sqlite", study_folder + "/study.sqlite");
  expect_bad_input(gpuprof({"study", study_folder}), study_folder + "/study.sqlite", "loop of symbolic links");
}

TEST_F(HostileReaders, AGarbageJournalGetsALineThatSaysWhatToDo) {
  const auto journal = trace_ + "-journal";
  write_file(journal, std::string(4096, '\x5a'));
  const auto result = gpuprof({"report", trace_});
  expect_bad_input(result, trace_, "-journal");
  EXPECT_NE(result.err.find("sqlite3"), std::string::npos) << result.err;
  EXPECT_EQ(read_file(journal), std::string(4096, '\x5a'));
}

TEST_F(HostileReaders, AStrayWalCreatesNothingBesideTheInput) {
  run_sql(trace_, "PRAGMA journal_mode = WAL");
  ASSERT_FALSE(fs::exists(trace_ + "-wal"));
  write_file(trace_ + "-wal", "");
  const auto result = gpuprof({"report", trace_});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(trace_ + "-shm")) << "report created -shm beside its input";
}

TEST_F(HostileReaders, SqliteReasonsQuoteNoSchemaTextFromTheFile) {
  run_sql(trace_, "PRAGMA writable_schema = ON; INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) "
                  "VALUES ('table', 'secret_words_from_the_file', 'x', 0, 'CREATE TABLE (');");
  const auto result = gpuprof({"info", trace_});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(result.err.find("secret_words_from_the_file"), std::string::npos) << result.err;
}

TEST_F(HostileReaders, InfoJsonNeverRepeatsAKey) {
  run_sql(trace_, "INSERT INTO meta(key, value) VALUES (CAST(x'6b01' AS TEXT), '1'), (CAST(x'6b02' AS TEXT), '2')");
  const auto result = gpuprof({"info", trace_, "--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::string key = "\"k\xEF\xBF\xBD\"";  // both control bytes become U+FFFD
  const auto first = result.out.find(key);
  ASSERT_NE(first, std::string::npos) << result.out;
  EXPECT_EQ(result.out.find(key, first + 1), std::string::npos) << "a key repeated: " << result.out;
}

TEST_F(HostileReaders, AJobFolderNeverSilentlyLosesARank) {
  const auto runs = folder_.file("runs");
  fs::create_directory(runs);
  fs::copy_file(trace_, runs + "/rank0.sqlite");
  const auto fifo = runs + "/rank1.sqlite", dangling = runs + "/rank2.sqlite";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(folder_.file("gone.sqlite"), dangling);
  expect_bad_input(gpuprof({"report", runs}), fifo, "is a FIFO, not a trace file");
  fs::remove(fifo);
  expect_bad_input(gpuprof({"report", runs}), dangling, "link to nothing");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto skipped = gpuprof({"report", runs, "--skip-bad"});
  EXPECT_EQ(skipped.exit_code, 0) << skipped.err;
  for (const auto& lost : {fifo, dangling}) EXPECT_NE(skipped.out.find(lost), std::string::npos) << skipped.out;
}

// Past `ulimit -f` SIGXFSZ killed gpuprof mid-write; now the write fails, and nothing takes the output's name.
TEST_F(HostileReaders, AWritePastTheFileSizeLimitLeavesNothing) {
  const std::string binary = GPUPROF_BINARY;
  const auto quoted = [](const std::string& text) { return "'" + text + "'"; };
  const std::vector<std::pair<std::string, std::string>> writers = {
      {"report --format html -o", folder_.file("r.html")},
      {"report --format json -o", folder_.file("r.json")},
      {"export --chrome-trace", folder_.file("e.json")},
  };
  for (const auto& [how, output] : writers) {
    const auto space = how.find(' ');
    const auto command = how.substr(0, space) + " " + quoted(trace_) + how.substr(space) + " " + quoted(output);
    const auto result = run_process({"/bin/sh", "-c", "ulimit -f 1; exec " + quoted(binary) + " " + command});
    EXPECT_EQ(result.exit_code, 1) << how << ": " << result.err;
    EXPECT_FALSE(fs::exists(output)) << how;
  }
  const auto synth = run_process({"/bin/sh", "-c", "ulimit -f 1; exec " + quoted(binary) + " synth --steps 50 -o " +
                                                       quoted(folder_.file("s.sqlite"))});
  EXPECT_NE(synth.exit_code, 0);
  EXPECT_LT(synth.exit_code, 128) << "killed by a signal: " << synth.err;
  EXPECT_FALSE(fs::exists(folder_.file("s.sqlite")));
  const auto reference = run_process(
      {"/bin/sh", "-c", "ulimit -f 1; exec " + quoted(binary) + " --cli-reference man " + quoted(folder_.file("g.1"))});
  EXPECT_EQ(reference.exit_code, 1) << reference.err;
  EXPECT_FALSE(fs::exists(folder_.file("g.1")));
  for (const auto& entry : fs::directory_iterator(folder_.path())) {
    EXPECT_EQ(entry.path().filename().string().find("gpuprof-tmp"), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace gpuprof::testing
