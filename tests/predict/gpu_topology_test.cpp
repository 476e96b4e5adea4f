#include <gtest/gtest.h>
#include <sys/stat.h>

#include <functional>
#include <string>

#include "gpuprof/predict/gpu_topology.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "expect_bad_input.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::predict {
namespace {

// Two PCIe switches joined through the host bridge, as `nvidia-smi topo -m` prints Rossum's 7gforce
// (the header underlined with ANSI escapes, as a terminal shows it, and the legend after the matrix).
using gpuprof::testing::expect_bad_input;

constexpr const char* kTwoSwitches =
    "\t\x1b[4mGPU0\tGPU1\tGPU2\tGPU3\tGPU4\tCPU Affinity\x1b[0m\n"
    "GPU0\t X \tPIX\tPIX\tPHB\tPHB\t0-19\n"
    "GPU1\tPIX\t X \tPIX\tPHB\tPHB\t0-19\n"
    "GPU2\tPIX\tPIX\t X \tPHB\tPHB\t0-19\n"
    "GPU3\tPHB\tPHB\tPHB\t X \tPIX\t0-19\n"
    "GPU4\tPHB\tPHB\tPHB\tPIX\t X \t0-19\n"
    "\nLegend:\n\n  X   = Self\n  PIX  = Connection traversing a single PCIe switch\n";

TEST(GpuTopology, ReadsSwitchesAndTheHostBridge) {
  const auto topology = parse_topology(kTwoSwitches, "7gforce.txt");
  ASSERT_EQ(topology.gpus(), 5);
  EXPECT_EQ(topology.path[0][1], PathKind::pix);
  EXPECT_EQ(topology.path[2][3], PathKind::phb);
  EXPECT_EQ(topology.farthest(3), PathKind::pix);  // GPUs 0-2: one switch
  EXPECT_EQ(topology.farthest(4), PathKind::phb);  // GPU 3 is behind the other switch
  EXPECT_FALSE(beyond_one_switch(topology.farthest(3)));
  EXPECT_TRUE(beyond_one_switch(topology.farthest(4)));
}

TEST(GpuTopology, AJobSeesOnlyItsVisibleGpus) {
  const auto topology = parse_topology(kTwoSwitches, "7gforce.txt");
  const auto other_switch = topology.visible({3, 4});
  ASSERT_EQ(other_switch.gpus(), 2);
  EXPECT_EQ(other_switch.farthest(2), PathKind::pix);
  EXPECT_EQ(topology.visible({4, 0}).farthest(2), PathKind::phb);
  expect_bad_input([&] { (void)topology.visible({0, 5}); }, "7gforce.txt");
  expect_bad_input([&] { (void)topology.visible({1, 1}); }, "7gforce.txt");
  expect_bad_input([&] { (void)topology.visible({-1}); }, "7gforce.txt");
}

TEST(GpuTopology, ReadsOldSocketNamesNvlinkAndNicColumns) {
  const auto topology = parse_topology(
      "        GPU0    GPU1    GPU2    NIC0    CPU Affinity\n"
      "GPU0     X      NV12    SOC     NODE    0-11\n"
      "GPU1    NV12     X      SYS     NODE    0-11\n"
      "GPU2    SOC     SYS      X      SYS     12-23\n"
      "NIC0    NODE    NODE    SYS      X\n",
      "dgx.txt");
  ASSERT_EQ(topology.gpus(), 3);
  EXPECT_EQ(topology.path[0][1], PathKind::nvlink);
  EXPECT_EQ(topology.path[0][2], PathKind::sys);  // SOC is what older drivers call SYS
  EXPECT_EQ(topology.farthest(2), PathKind::nvlink);
  EXPECT_EQ(topology.farthest(3), PathKind::sys);
}

TEST(GpuTopology, RefusesHostileMatrices) {
  const std::string header = "GPU0\tGPU1\n";
  for (const auto& [text, why] : std::initializer_list<std::pair<std::string, const char*>>{
           {"", "empty"},
           {"hello world\n", "no header"},
           {"GPU1\tGPU0\nGPU1 X PIX\n", "header out of order"},
           {header + "GPU0 X PIX\n", "a row missing"},
           {header + "GPU0 X PIX\nGPU0 X PIX\n", "a row twice"},
           {header + "GPU0 X PIX\nGPU1 PHB X\n", "asymmetric"},
           {header + "GPU0 X FOO\nGPU1 FOO X\n", "unknown path"},
           {header + "GPU0 PIX X\nGPU1 X PIX\n", "X off the diagonal"},
           {header + "GPU0 X PIX\nGPU7 PIX X\n", "a GPU beyond the header"},
           {header + "GPU0 X\nGPU1 PIX X\n", "a short row"},
           {header + "GPU0 X NV99999\nGPU1 NV99999 X\n", "an NVLink count no machine has"},
           {"GPU0 GPU99999999999\n", "an index beyond any integer"},
       })
    expect_bad_input([&, text = text] { parse_topology(text, "topo.txt"); }, "topo.txt"), (void)why;
}

TEST(GpuTopology, RefusesFilesThatAreNotSmallRegularFiles) {
  gpuprof::testing::TemporaryFolder folder;
  expect_bad_input([&] { read_topology_file(folder.file("missing.txt")); }, folder.file("missing.txt"));
  expect_bad_input([&] { read_topology_file(folder.path().string()); }, folder.path().string());
  const auto fifo = folder.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expect_bad_input([&] { read_topology_file(fifo); }, fifo);
  const auto big = folder.file("big.txt");
  gpuprof::testing::write_file(big, std::string(2 << 20, 'x'));
  expect_bad_input([&] { read_topology_file(big); }, big);
  const auto good = folder.file("good.txt");
  gpuprof::testing::write_file(good, kTwoSwitches);
  EXPECT_EQ(read_topology_file(good).gpus(), 5);
}

}  // namespace
}  // namespace gpuprof::predict
