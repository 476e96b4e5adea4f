#include "gpuprof/collector/collector_config.hpp"

#include <gtest/gtest.h>

#include <map>

#include "gpuprof/collector/process_identity.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::collector {
namespace {

EnvironmentLookup environment_of(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
}

TEST(CollectorConfigTest, DefaultsAreBoundedAndRecordTheUsualKinds) {
  const auto config = read_collector_config(environment_of({}));
  EXPECT_EQ(config.output_pattern, "gpuprof_%h_%p.sqlite");
  EXPECT_LE(config.buffer_size * config.buffer_count, std::size_t{256} << 20);
  EXPECT_EQ(config.flush_interval_ms, 1000u);
  EXPECT_TRUE(config.trace_cuda && config.trace_nvtx && config.trace_api && config.trace_sync);
  EXPECT_FALSE(config.trace_driver);
  EXPECT_TRUE(config.warnings.empty());
}

TEST(CollectorConfigTest, ReadsTheVariablesGpuprofRecordSets) {
  const auto config = read_collector_config(environment_of({{"GPUPROF_OUTPUT", "/tmp/x_%p.sqlite"},
                                                            {"GPUPROF_FORCE", "1"},
                                                            {"GPUPROF_TRACE", "cuda,driver"},
                                                            {"GPUPROF_BUFFER_SIZE", "1048576"},
                                                            {"GPUPROF_BUFFER_COUNT", "4"},
                                                            {"GPUPROF_FLUSH_INTERVAL_MS", "250"},
                                                            {"GPUPROF_FILES_LIST", "/tmp/list"}}));
  EXPECT_EQ(config.output_pattern, "/tmp/x_%p.sqlite");
  EXPECT_TRUE(config.force);
  EXPECT_TRUE(config.trace_cuda);
  EXPECT_TRUE(config.trace_driver);
  EXPECT_FALSE(config.trace_nvtx || config.trace_api || config.trace_sync);
  EXPECT_EQ(config.buffer_size, 1u << 20);
  EXPECT_EQ(config.buffer_count, 4u);
  EXPECT_EQ(config.flush_interval_ms, 250u);
  EXPECT_EQ(config.files_list, "/tmp/list");
}

TEST(CollectorConfigTest, BadValuesWarnAndKeepDefaults) {
  const auto config = read_collector_config(environment_of(
      {{"GPUPROF_BUFFER_SIZE", "lots"}, {"GPUPROF_BUFFER_COUNT", "1"}, {"GPUPROF_TRACE", "cuda,gpu-metrics"}}));
  EXPECT_EQ(config.buffer_size, CollectorConfig{}.buffer_size);
  EXPECT_EQ(config.buffer_count, CollectorConfig{}.buffer_count);
  EXPECT_EQ(config.warnings.size(), 3u);
}

TEST(ProcessIdentityTest, RanksComeFromTheLauncherThatStartedUs) {
  ProcessIdentity torchrun;
  detect_ranks(environment_of({{"RANK", "3"}, {"WORLD_SIZE", "8"}, {"LOCAL_RANK", "1"}}), torchrun);
  EXPECT_EQ(torchrun.rank, 3);
  EXPECT_EQ(torchrun.world_size, 8);
  EXPECT_EQ(torchrun.local_rank, 1);
  ProcessIdentity open_mpi;
  detect_ranks(environment_of({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "4"}}), open_mpi);
  EXPECT_EQ(open_mpi.rank, 2);
  EXPECT_EQ(open_mpi.world_size, 4);
  ProcessIdentity slurm;
  detect_ranks(environment_of({{"SLURM_PROCID", "5"}, {"SLURM_NTASKS", "6"}, {"PMI_RANK", "x"}}), slurm);
  EXPECT_EQ(slurm.rank, 5);
  EXPECT_EQ(slurm.world_size, 6);
  ProcessIdentity alone;
  detect_ranks(environment_of({}), alone);
  EXPECT_FALSE(alone.rank.has_value());
  EXPECT_FALSE(alone.world_size.has_value());
}

TEST(ProcessIdentityTest, CommandLineAndCalibrationFormats) {
  gpuprof::testing::TemporaryFolder folder;
  gpuprof::testing::write_file(folder.file("cmdline"), std::string("python\0train.py\0--batch\0" "064\0", 28));
  EXPECT_EQ(read_command_line(folder.file("cmdline")), "python train.py --batch 064");
  EXPECT_EQ(format_clock_calibration({{10, 20}, {30, 40}}), "[[10,20],[30,40]]");
}

}  // namespace
}  // namespace gpuprof::collector
