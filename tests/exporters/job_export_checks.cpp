#include "job_export_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::testing {
namespace {

using Value = rapidjson::Value;
using Place = std::pair<std::string, std::string>;

std::string id_text(const Value& value) {
  if (value.IsInt64()) return std::to_string(value.GetInt64());
  return value.IsString() ? value.GetString() : "?";
}

struct Slice {
  double start = 0, end = 0;
};

struct Flow {
  std::string category;
  std::vector<std::string> phases;
  std::set<std::string> pids;
};

// Chrome's time unit is the microsecond; gpuprof writes three decimals (whole nanoseconds).
void expect_microseconds(const Value& value, const char* what) {
  ASSERT_TRUE(value.IsNumber()) << what;
  const double ns = value.GetDouble() * 1000.0;
  EXPECT_GE(value.GetDouble(), 0.0) << what;
  EXPECT_NEAR(ns, std::round(ns), 1e-3 * std::max(1.0, std::abs(ns)) * 1e-6 + 1e-3) << what;
}

bool bound_to_slice(const std::map<Place, std::vector<Slice>>& slices, const Place& place, double at) {
  const auto found = slices.find(place);
  if (found == slices.end()) return false;
  return std::any_of(found->second.begin(), found->second.end(),
                     [&](const Slice& slice) { return slice.start <= at && at <= slice.end; });
}

}  // namespace

MergedTraceShape check_merged_trace(const rapidjson::Document& document, const job::JobAnalysis& job) {
  MergedTraceShape shape;
  EXPECT_TRUE(document.IsObject());
  EXPECT_TRUE(document["baseTimeNanoseconds"].IsInt64());
  // A job's file is no single rank's: distributedInfo, when there, names none.
  if (document.HasMember("distributedInfo")) {
    EXPECT_FALSE(document["distributedInfo"].HasMember("rank"));
  }
  const Value& events = document["traceEvents"];
  std::map<std::string, std::string> processes;
  std::set<Place> threads;
  std::map<Place, std::vector<Slice>> slices;
  for (const auto& event : events.GetArray()) {
    const std::string phase = event["ph"].GetString();
    EXPECT_TRUE(phase == "X" || phase == "M" || phase == "s" || phase == "t" || phase == "f" || phase == "C")
        << phase;
    const Place place{id_text(event["pid"]), id_text(event["tid"])};
    if (phase == "M" && std::string(event["name"].GetString()) == "process_name") {
      EXPECT_TRUE(processes.emplace(place.first, event["args"]["name"].GetString()).second) << place.first;
    }
    if (phase == "M" && std::string(event["name"].GetString()) == "thread_name") threads.insert(place);
    if (phase != "X") continue;
    ++shape.complete;
    expect_microseconds(event["ts"], "ts");
    expect_microseconds(event["dur"], "dur");
    const double start = event["ts"].GetDouble();
    slices[place].push_back({start, start + event["dur"].GetDouble()});
  }
  std::map<std::pair<std::string, std::int64_t>, Flow> flows;
  for (const auto& event : events.GetArray()) {
    const std::string phase = event["ph"].GetString();
    const Place place{id_text(event["pid"]), id_text(event["tid"])};
    if (phase != "M") {
      EXPECT_TRUE(processes.contains(place.first)) << phase << " on pid " << place.first;
    }
    if (phase == "X") {
      EXPECT_TRUE(threads.contains(place)) << place.first << "/" << place.second;
    }
    if (phase != "s" && phase != "t" && phase != "f") continue;
    expect_microseconds(event["ts"], "flow ts");
    EXPECT_TRUE(bound_to_slice(slices, place, event["ts"].GetDouble()))
        << "a flow " << phase << " at " << event["ts"].GetDouble() << " binds to no slice of " << place.first;
    if (phase == "f") {
      EXPECT_STREQ(event["bp"].GetString(), "e");
    }
    auto& flow = flows[{event["cat"].GetString(), event["id"].GetInt64()}];
    flow.category = event["cat"].GetString();
    flow.phases.push_back(phase);
    flow.pids.insert(place.first);
  }
  for (const auto& [key, flow] : flows) {
    EXPECT_EQ(std::count(flow.phases.begin(), flow.phases.end(), "s"), 1) << key.first << " " << key.second;
    EXPECT_EQ(std::count(flow.phases.begin(), flow.phases.end(), "f"), 1) << key.first << " " << key.second;
    if (flow.category == "gpuprof_collective") {
      ++shape.collective_chains;
      EXPECT_GE(flow.pids.size(), 2U) << "a collective arrow joins GPUs of different ranks";
    } else {
      EXPECT_EQ(flow.category, "ac2g");
      EXPECT_TRUE(flow.phases.size() == 2 && flow.phases.front() == "s") << key.second;
      ++shape.launch_arrows;
    }
  }
  // Every rank's GPUs, named with their rank.
  for (const auto& rank : job.ranks) {
    for (const auto& device : rank.analysis.devices) {
      const std::string title = "rank " + std::to_string(rank.analysis.rank) + " \u00b7 GPU " +
                                std::to_string(device.device);
      const bool named = std::any_of(processes.begin(), processes.end(), [&](const auto& process) {
        return process.second == title || process.second.rfind(title + ":", 0) == 0;
      });
      EXPECT_TRUE(named) << title;
    }
  }
  return shape;
}

namespace {

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

Intervals kernels_on(const trace::TraceModel& model, std::int32_t device, std::int64_t offset_ns) {
  Intervals result;
  for (std::size_t i = 0; i < model.kernels.size(); ++i) {
    if (model.kernels.device[i] != device) continue;
    result.emplace_back(model.kernels.start_ns[i] + offset_ns, model.kernels.end_ns[i] + offset_ns);
  }
  std::sort(result.begin(), result.end());
  return result;
}

trace::TraceModel load_input(const std::string& input) {
  importers::TemporaryStore store;
  return trace::load_trace_model(importers::open_as_trace(input, store));
}

void expect_same_breakdown(const analysis::Breakdown& job, const analysis::Breakdown& merged, const std::string& what) {
  EXPECT_EQ(job.window_ns, merged.window_ns) << what;
  EXPECT_EQ(job.computation_ns, merged.computation_ns) << what;
  EXPECT_EQ(job.total_comm_ns, merged.total_comm_ns) << what;
  EXPECT_EQ(job.exposed_comm_ns, merged.exposed_comm_ns) << what;
  EXPECT_EQ(job.total_memcpy_ns, merged.total_memcpy_ns) << what;
  EXPECT_EQ(job.exposed_memcpy_ns, merged.exposed_memcpy_ns) << what;
  EXPECT_EQ(job.busy_ns, merged.busy_ns) << what;
  EXPECT_EQ(job.idle_ns, merged.idle_ns) << what;
  EXPECT_EQ(job.batch_gap_ns, merged.batch_gap_ns) << what;
}

}  // namespace

void expect_same_report(const job::JobAnalysis& job, const std::string& merged, const std::string& imported) {
  importers::ImportOptions options;
  options.input = merged;
  options.output = imported;
  importers::import_trace(options);
  const auto model = trace::load_trace_model(imported);
  const auto analysis = analysis::analyze_rank(model, {});
  std::int32_t number = 0;
  std::size_t compared = 0;
  for (const auto& rank : job.ranks) {
    const auto original = load_input(rank.input);
    const auto offset = job.clocks.offset_of(rank.analysis.rank);
    for (const auto& device : rank.analysis.devices) {
      const std::string what = "rank " + std::to_string(rank.analysis.rank) + " GPU " + std::to_string(device.device);
      const auto found = std::find_if(analysis.devices.begin(), analysis.devices.end(),
                                      [&](const auto& entry) { return entry.device == number; });
      ++number;
      if (found == analysis.devices.end()) {
        ADD_FAILURE() << what << " is not in the re-imported trace";
        continue;
      }
      ++compared;
      EXPECT_EQ(device.steps, found->steps) << what;
      EXPECT_EQ(device.source, found->source) << what;
      expect_same_breakdown(device.total, found->total, what);
      EXPECT_EQ(kernels_on(original, device.device, offset), kernels_on(model, found->device, 0)) << what;
    }
  }
  EXPECT_EQ(compared, analysis.devices.size());
  // Kernel time adds up over the ranks: the merged kernel summary is the job's.
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> job_kernels, merged_kernels;  // count, total
  const auto add = [](auto& kernels, const analysis::KernelSummaryRow& row) {
    kernels[row.name].first += row.stats.instances;
    kernels[row.name].second += row.stats.total_ns;
  };
  for (const auto& rank : job.ranks) {
    for (const auto& row : rank.analysis.kernels.kernels) add(job_kernels, row);
  }
  for (const auto& row : analysis.kernels.kernels) add(merged_kernels, row);
  EXPECT_EQ(job_kernels, merged_kernels);
}

}  // namespace gpuprof::testing
