#include "placement_plan.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

using Kind = TransferKind;

std::vector<PlacedLayer> placed(const std::vector<int>& devices) {
  const std::vector<std::string> names{"user.embedding", "user.conv", "user.pool", "user.dense", "item.embedding",
                                       "item.conv", "item.pool", "item.dense", "head"};
  std::vector<PlacedLayer> layers;
  for (std::size_t i = 0; i < names.size(); ++i) layers.push_back({names[i], devices[i]});
  return layers;
}

PlannedTransfer activation(const char* producer, const char* consumer, int from, int to, bool tower = false) {
  return {Kind::activation, producer, consumer, from, to, tower};
}

PlannedTransfer gradient(const char* producer, const char* consumer, int from, int to, bool tower = false) {
  return {Kind::gradient, producer, consumer, from, to, tower};
}

TEST(PlacementPlan, SingleAndDataParallelKeepEveryLayerOnTheReplicasGpu) {
  for (auto [strategy, gpus] : {std::pair{Strategy::single, 1}, std::pair{Strategy::data_parallel, 4}}) {
    const PlacementPlan plan = make_placement_plan(towers_graph(), strategy, gpus);
    EXPECT_EQ(plan.layers, placed({0, 0, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_TRUE(plan.transfers.empty());
    EXPECT_EQ(plan.replicas, gpus);
    EXPECT_EQ(plan.input_devices, std::vector<int>({0}));
  }
}

TEST(PlacementPlan, TowerParallelOnTwoGpusMovesOnlyTheItemTowerOutput) {
  const PlacementPlan plan = make_placement_plan(towers_graph(), Strategy::tower_parallel, 2);
  EXPECT_EQ(plan.replicas, 1);
  EXPECT_EQ(plan.layers, placed({0, 0, 0, 0, 1, 1, 1, 1, 0}));
  const std::vector<PlannedTransfer> expected{activation("item.dense", "head", 1, 0, true),
                                              gradient("item.dense", "head", 0, 1, true)};
  EXPECT_EQ(plan.transfers, expected);
  EXPECT_EQ(plan.input_devices, std::vector<int>({0, 1}));
  EXPECT_EQ(plan.devices_used, std::vector<int>({0, 1}));
}

TEST(PlacementPlan, TowerParallelOnThreeGpusGivesTheHeadItsOwnGpu) {
  const PlacementPlan plan = make_placement_plan(towers_graph(), Strategy::tower_parallel, 3);
  EXPECT_EQ(plan.layers, placed({0, 0, 0, 0, 1, 1, 1, 1, 2}));
  const std::vector<PlannedTransfer> expected{
      activation("user.dense", "head", 0, 2, true), activation("item.dense", "head", 1, 2, true),
      gradient("user.dense", "head", 2, 0, true), gradient("item.dense", "head", 2, 1, true)};
  EXPECT_EQ(plan.transfers, expected);
  EXPECT_EQ(plan.input_devices, std::vector<int>({0, 1, 2}));
}

TEST(PlacementPlan, AlternateOnTwoGpusCrossesAtEveryLayer) {
  const PlacementPlan plan = make_placement_plan(towers_graph(), Strategy::alternate, 2);
  EXPECT_EQ(plan.layers, placed({0, 1, 0, 1, 0, 1, 0, 1, 0}));
  const std::vector<PlannedTransfer> expected{
      activation("user.embedding", "user.conv", 0, 1), activation("user.conv", "user.pool", 1, 0),
      activation("user.pool", "user.dense", 0, 1), activation("item.embedding", "item.conv", 0, 1),
      activation("item.conv", "item.pool", 1, 0), activation("item.pool", "item.dense", 0, 1),
      activation("user.dense", "head", 1, 0, true), activation("item.dense", "head", 1, 0, true),
      gradient("user.dense", "head", 0, 1, true), gradient("item.dense", "head", 0, 1, true),
      gradient("item.pool", "item.dense", 1, 0), gradient("item.conv", "item.pool", 0, 1),
      gradient("item.embedding", "item.conv", 1, 0), gradient("user.pool", "user.dense", 1, 0),
      gradient("user.conv", "user.pool", 0, 1), gradient("user.embedding", "user.conv", 1, 0)};
  EXPECT_EQ(plan.transfers, expected);
  EXPECT_EQ(plan.input_devices, std::vector<int>({0}));  // both embeddings and the head are on GPU 0
}

TEST(PlacementPlan, AlternateOnThreeGpusCyclesThroughThem) {
  const PlacementPlan plan = make_placement_plan(towers_graph(), Strategy::alternate, 3);
  EXPECT_EQ(plan.layers, placed({0, 1, 2, 0, 0, 1, 2, 0, 1}));
  const std::vector<PlannedTransfer> expected{
      activation("user.embedding", "user.conv", 0, 1), activation("user.conv", "user.pool", 1, 2),
      activation("user.pool", "user.dense", 2, 0), activation("item.embedding", "item.conv", 0, 1),
      activation("item.conv", "item.pool", 1, 2), activation("item.pool", "item.dense", 2, 0),
      activation("user.dense", "head", 0, 1, true), activation("item.dense", "head", 0, 1, true),
      gradient("user.dense", "head", 1, 0, true), gradient("item.dense", "head", 1, 0, true),
      gradient("item.pool", "item.dense", 0, 2), gradient("item.conv", "item.pool", 2, 1),
      gradient("item.embedding", "item.conv", 1, 0), gradient("user.pool", "user.dense", 0, 2),
      gradient("user.conv", "user.pool", 2, 1), gradient("user.embedding", "user.conv", 1, 0)};
  EXPECT_EQ(plan.transfers, expected);
  EXPECT_EQ(plan.input_devices, std::vector<int>({0, 1}));
  EXPECT_EQ(plan.devices_used, std::vector<int>({0, 1, 2}));
}

void expect_refused(const ModelGraph& graph, Strategy strategy, int gpus, const std::string& mentions) {
  try {
    make_placement_plan(graph, strategy, gpus);
    ADD_FAILURE() << "accepted " << strategy_name(strategy) << " on " << gpus << " GPUs";
  } catch (const WorkloadError& error) {
    EXPECT_EQ(error.exit_code(), exit_bad_input);
    EXPECT_NE(std::string(error.what()).find(mentions), std::string::npos) << error.what();
  }
}

TEST(PlacementPlan, RefusesPlacementsThatCannotWork) {
  expect_refused(towers_graph(), Strategy::tower_parallel, 1, "needs at least 2 GPUs");
  expect_refused(towers_graph(), Strategy::alternate, 1, "needs at least 2 GPUs");
  expect_refused(towers_graph(), Strategy::tower_parallel, 4, "at most 3 GPUs");
  expect_refused(towers_graph(), Strategy::alternate, 6, "at most 5 GPUs");
  expect_refused(mlp_graph(), Strategy::tower_parallel, 2, "two towers");
}

TEST(PlacementPlan, PrintsEveryGpuAndTransfer) {
  const std::string text = format_placement_plan(make_placement_plan(towers_graph(), Strategy::tower_parallel, 2));
  EXPECT_NE(text.find("GPU 0: user.embedding user.conv user.pool user.dense head"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 1: item.embedding item.conv item.pool item.dense"), std::string::npos) << text;
  EXPECT_NE(text.find("transfers between GPUs per step: 2"), std::string::npos) << text;
  EXPECT_NE(text.find("activation item.dense -> head  GPU 1 -> GPU 0"), std::string::npos) << text;
  EXPECT_NE(text.find("gradient   head -> item.dense  GPU 0 -> GPU 1"), std::string::npos) << text;
}

TEST(PlacementPlan, DeviceOfNamesTheLayer) {
  const PlacementPlan plan = make_placement_plan(towers_graph(), Strategy::tower_parallel, 2);
  EXPECT_EQ(plan.device_of("item.conv"), 1);
  EXPECT_THROW(plan.device_of("nope"), std::out_of_range);
}

}  // namespace
}  // namespace gpuprof::workloads
