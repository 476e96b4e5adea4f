#include "json_idle.hpp"

#include "json_fields.hpp"

#include <cmath>
#include <string>

namespace gpuprof::report {
namespace {

void name(JsonWriter& w, idle::IdleCause cause) {
  const auto text = idle::to_string(cause);
  w.Key(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void share(JsonWriter& w, const char* key, double value) {
  json::field(w, key, value);
}

void write_tally(JsonWriter& w, const idle::IdleTally& tally) {
  w.StartObject();
  w.Key("labels");
  w.StartObject();
  for (std::size_t i = 0; i < idle::kIdleLabels; ++i) {
    if (tally.label_ns[i] == 0) continue;
    const auto label = static_cast<idle::IdleCause>(i);
    name(w, label);
    w.StartObject();
    w.Key("idle_ns"), w.Int64(tally.label_ns[i]);
    w.Key("covered_ns"), w.Int64(tally.covered_ns[i]);
    share(w, "coverage", tally.coverage(label));
    w.EndObject();
  }
  w.EndObject();
  w.Key("causes_ns");
  write_cause_times(w, tally.cause_ns);
  w.Key("intervals"), w.Int64(tally.intervals);
  w.EndObject();
}

}  // namespace

void write_cause_times(JsonWriter& w, const idle::CauseTimes& times) {
  w.StartObject();
  for (std::size_t i = 0; i < times.size(); ++i) {
    name(w, static_cast<idle::IdleCause>(i));
    w.Int64(times[i]);
  }
  w.EndObject();
}

void write_idle_causes(JsonWriter& w, const idle::IdleTally& in_steps, const idle::IdleTally& gaps) {
  w.StartObject();
  w.Key("in_steps");
  write_tally(w, in_steps);
  w.Key("batch_gap");
  write_tally(w, gaps);
  w.EndObject();
}

void write_summary_idle(JsonWriter& w, const IdleSummary& idle) {
  w.Key("idle");
  w.StartObject();
  w.Key("window_ns"), w.Int64(idle.window_ns);
  share(w, "explained_in_steps", idle.explained_in_steps());
  w.Key("causes");
  write_idle_causes(w, idle.in_steps, idle.gaps);
  w.Key("blockers");
  w.StartArray();
  for (const auto& entry : idle.blockers) {
    const auto& b = entry.blocker;
    w.StartObject();
    w.Key("rank"), w.Int(entry.rank);
    w.Key("device"), w.Int(b.device);
    w.Key("cause"), w.String(std::string(idle::to_string(b.cause)).c_str());
    w.Key("call"), w.String(b.call.c_str(), static_cast<rapidjson::SizeType>(b.call.size()));
    w.Key("detail"), w.String(b.detail.c_str(), static_cast<rapidjson::SizeType>(b.detail.size()));
    w.Key("count"), w.Int64(b.count);
    w.Key("shortest_ns"), w.Int64(b.shortest_ns);
    w.Key("longest_ns"), w.Int64(b.longest_ns);
    w.Key("start_ns"), w.Int64(b.start_ns);
    w.Key("end_ns"), w.Int64(b.end_ns);
    w.Key("idle_ns"), w.Int64(b.idle_ns);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

namespace {

std::string_view json_name(idle::HostEventKind kind) {
  switch (kind) {
    case idle::HostEventKind::api_call: return "api_call";
    case idle::HostEventKind::sync: return "sync";
    case idle::HostEventKind::range: return "range";
    case idle::HostEventKind::thread_running: return "thread_running";
  }
  return "event";
}

}  // namespace

void write_host_activity(JsonWriter& w, const idle::HostActivityDuring& activity) {
  using json::field;
  using json::key;
  key(w, "host_activity");
  w.StartObject();
  field(w, "covered_ns", activity.covered_ns);
  const auto length = activity.end_ns - activity.start_ns;
  field(w, "coverage", length > 0 ? static_cast<double>(activity.covered_ns) / static_cast<double>(length) : 0.0);
  key(w, "groups");
  w.StartArray();
  for (const auto& group : activity.groups) {
    w.StartObject();
    field(w, "kind", json_name(group.kind));
    field(w, "name", std::string_view(group.name));
    field(w, "thread", group.thread);
    field(w, "count", group.count);
    field(w, "overlap_ns", group.overlap_ns);
    field(w, "cause", idle::to_string(group.cause));
    w.EndObject();
  }
  w.EndArray();
  field(w, "groups_left_out", activity.groups_left_out);
  key(w, "launched_by_thread");
  if (activity.launched_by_thread) {
    w.Int64(*activity.launched_by_thread);
  } else {
    w.Null();
  }
  w.EndObject();
}

}  // namespace gpuprof::report
