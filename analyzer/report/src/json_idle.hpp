#pragma once

// JSON of idle causes: a tally by label and by cause (breakdowns, steps, gaps)
// and the summary's "why is the GPU idle" block.

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/report/idle_summary.hpp"

namespace gpuprof::report {

using JsonWriter = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

// {"in_steps": tally, "batch_gap": tally}, each {"labels": {label: {idle_ns, covered_ns, coverage}},
// "causes_ns": {cause: ns}, "intervals": n}; labels without time are left out, causes are all there.
void write_idle_causes(JsonWriter& w, const idle::IdleTally& in_steps, const idle::IdleTally& gaps);
// {cause: ns} for every covering cause.
void write_cause_times(JsonWriter& w, const idle::CauseTimes& times);
void write_summary_idle(JsonWriter& w, const IdleSummary& idle);
struct ReportSummary;
// "advice": what to try (advice.hpp), largest idle cause first; `rank` and `rank_cause` null but for peer_wait
// with a straggler.
void write_summary_advice(JsonWriter& w, const ReportSummary& summary);

// "host_activity": what the threads that issue the rank's GPU work did during a gap or an idle interval
// (covered_ns, coverage, groups, groups_left_out), as the app's details of a clicked band say it.
void write_host_activity(JsonWriter& w, const idle::HostActivityDuring& activity);

struct ReportInput;
// "idle_intervals": the kept idle intervals (RankAnalysis::idle_intervals), the ReportInput::max_intervals
// longest, each with its label, coverage and covering causes, and how many (and how much idle time) the
// limit left out; `kept` says whether the analyses kept every interval.
void write_idle_intervals(JsonWriter& w, const ReportInput& input);

}  // namespace gpuprof::report
