// The exported JSON as Perfetto and chrome://tracing read it: named processes
// and threads, complete events with non-negative durations, paired flow arrows.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>

#include "export_test_support.hpp"
#include "gpuprof/trace/derived_tables.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using testing::TemporaryFolder;
using Value = rapidjson::Value;
using Place = std::pair<std::string, std::string>;

std::string id_text(const Value& value) {
  if (value.IsInt64()) return std::to_string(value.GetInt64());
  return value.IsString() ? value.GetString() : "?";
}

struct Names {
  std::map<std::string, std::string> processes;  // pid → name
  std::set<Place> threads;
};

Names metadata_of(const Value& events) {
  Names names;
  for (const auto& event : events.GetArray()) {
    if (std::string(event["ph"].GetString()) != "M") continue;
    const std::string what = event["name"].GetString();
    if (what == "process_name") names.processes[id_text(event["pid"])] = event["args"]["name"].GetString();
    if (what == "thread_name") names.threads.emplace(id_text(event["pid"]), id_text(event["tid"]));
  }
  return names;
}

class ExportedJson : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_path_ = folder_.file("handcrafted.sqlite");
    testing::write_handcrafted_trace(trace_path_);
  }
  rapidjson::Document exported(const std::string& name) {
    const auto summary = testing::export_file(trace_path_, folder_.file(name));
    EXPECT_GT(summary.events, 0);
    EXPECT_GT(summary.output_bytes, 0);
    rapidjson::Document document = testing::parse_json(folder_.file(name));
    EXPECT_FALSE(document.HasParseError());
    return document;
  }

  TemporaryFolder folder_;
  std::string trace_path_;
};

TEST_F(ExportedJson, HasTheTopLevelKeysKinetoWrites) {
  const auto document = exported("out.json");
  ASSERT_TRUE(document.IsObject());
  ASSERT_TRUE(document["traceEvents"].IsArray());
  EXPECT_EQ(document["baseTimeNanoseconds"].GetInt64(), 1'700'000'000'123'456'789 + 50);
  EXPECT_EQ(document["distributedInfo"]["rank"].GetInt(), 1);
  EXPECT_EQ(document["distributedInfo"]["world_size"].GetInt(), 2);
  ASSERT_EQ(document["deviceProperties"].Size(), 2u);
  EXPECT_STREQ(document["deviceProperties"][1]["name"].GetString(), "NVIDIA H100 80GB HBM3");
}

TEST_F(ExportedJson, NamesEveryProcessAndThreadThatHoldsEvents) {
  const auto document = exported("out.json.gz");
  const Value& events = document["traceEvents"];
  const Names names = metadata_of(events);
  std::size_t complete = 0;
  for (const auto& event : events.GetArray()) {
    const std::string phase = event["ph"].GetString();
    if (phase != "X") continue;
    ++complete;
    EXPECT_GE(event["dur"].GetDouble(), 0.0);
    EXPECT_GE(event["ts"].GetDouble(), 0.0);
    const Place place{id_text(event["pid"]), id_text(event["tid"])};
    EXPECT_TRUE(names.processes.contains(place.first)) << place.first;
    EXPECT_TRUE(names.threads.contains(place)) << place.first << "/" << place.second;
  }
  EXPECT_EQ(complete, 4u + 6u + 1u + 10u + 1u + 3u);
  EXPECT_EQ(names.processes.at("0"), "rank 1 \u00b7 GPU 0: NVIDIA H100 80GB HBM3");
  EXPECT_EQ(names.processes.at("4242"), "rank 1 \u00b7 host process 4242");
}

TEST_F(ExportedJson, PairsEveryFlowStartWithOneFinishOnTheGpu) {
  const auto document = exported("out.json");
  std::map<std::int64_t, std::pair<int, int>> flows;  // id → (starts, finishes)
  for (const auto& event : document["traceEvents"].GetArray()) {
    const std::string phase = event["ph"].GetString();
    if (phase != "s" && phase != "f") continue;
    EXPECT_STREQ(event["cat"].GetString(), "ac2g");
    auto& [starts, finishes] = flows[event["id"].GetInt64()];
    if (phase == "s") {
      ++starts;
      EXPECT_EQ(id_text(event["pid"]), "4242");
    } else {
      ++finishes;
      EXPECT_STREQ(event["bp"].GetString(), "e");
    }
  }
  // Ten launches with correlation ids, each matching one kernel, copy or memset; the
  // copy without a correlation id and the sync get no arrow.
  EXPECT_EQ(flows.size(), 10u);
  for (const auto& [id, counts] : flows) EXPECT_EQ(counts, std::make_pair(1, 1)) << id;
}

TEST_F(ExportedJson, KeepsNamesThatNeedEscaping) {
  const auto document = exported("out.json");
  std::set<std::string> names;
  for (const auto& event : document["traceEvents"].GetArray()) names.insert(event["name"].GetString());
  EXPECT_TRUE(names.contains(testing::kQuotedKernelName));
  EXPECT_TRUE(names.contains("step 1 \"train\""));
  EXPECT_TRUE(names.contains("Memcpy PtoP (Device -> Device)"));
  EXPECT_TRUE(names.contains("Memcpy HtoD (Unknown -> Unknown)"));
}

TEST_F(ExportedJson, DrawsBatchGapsAsCountersOnTheirGpu) {
  const std::int64_t base = 1'700'000'000'123'456'789;
  trace::save_derived_tables(trace_path_, {}, {{1, 0, 1, base + 60'000, base + 62'500, "sync"}});
  const auto document = exported("out.json");
  std::vector<double> samples;
  for (const auto& event : document["traceEvents"].GetArray()) {
    if (std::string(event["ph"].GetString()) != "C") continue;
    EXPECT_EQ(id_text(event["pid"]), "0");
    samples.push_back(event["args"]["idle_us"].GetDouble());
  }
  EXPECT_EQ(samples, (std::vector<double>{2.5, 0.0}));
}

}  // namespace
}  // namespace gpuprof
