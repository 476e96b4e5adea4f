#include "gpuprof/importers/import_sink.hpp"

#include <algorithm>

namespace gpuprof::importers {

// Every event row passes here once.
void ImportSink::span(std::int64_t start_ns, std::int64_t end_ns) {
  first_ns_ = first_ns_ ? std::min(*first_ns_, start_ns) : start_ns;
  last_ns_ = last_ns_ ? std::max(*last_ns_, end_ns) : end_ns;
  progressed();
}

void ImportSink::progressed() {
  constexpr std::int64_t kEventsPerReport = 4096;
  if (progress_ != nullptr && ++unreported_events_ == kEventsPerReport) report_remaining_events();
}

void ImportSink::report_remaining_events() {
  if (progress_ != nullptr && unreported_events_ > 0) progress_->add(unreported_events_);
  unreported_events_ = 0;
}

void ImportSink::add(const trace::DeviceRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  ++counts_.devices;
}
void ImportSink::add(const trace::KernelRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.kernels;
}
void ImportSink::add(const trace::MemcpyRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.memcpys;
}
void ImportSink::add(const trace::MemsetRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.memsets;
}
void ImportSink::add(const trace::ApiCallRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.api_calls;
}
void ImportSink::add(const trace::SyncRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.syncs;
}
void ImportSink::add(const trace::RangeRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.start_ns, row.end_ns);
  ++counts_.ranges;
}
void ImportSink::add(const trace::CollectiveRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  ++counts_.collectives;
}

void ImportSink::add(const trace::MemoryEventRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  span(row.time_ns, row.time_ns);
  ++counts_.memory_events;
}

void ImportSink::add(const trace::ThreadStateRow& row) {
  if (writer_ != nullptr) writer_->add(row);
  progressed();
  ++counts_.thread_states;
}

void ImportSink::count(const trace::StatName& name, trace::Severity severity, std::int64_t count,
                       std::string_view detail) {
  auto [found, inserted] = stats_.try_emplace(name.text());
  Stat& stat = found->second;
  if (inserted) stat.severity = severity;
  if (stat.detail.empty()) stat.detail = std::string(detail);
  stat.value += count;
  if (severity == trace::Severity::warning || severity == trace::Severity::error) counts_.warnings += count;
}

void ImportSink::write_summary(std::int64_t time_offset_ns) {
  if (writer_ == nullptr) return;
  for (const auto& [name, stat] : stats_) {
    trace::StatRow row{name, stat.value, stat.severity, std::nullopt};
    if (!stat.detail.empty()) row.detail = stat.detail;
    writer_->set_stat(row);
  }
  const std::pair<trace::StatId, std::int64_t> tables[] = {
      {StatId::import_rows_kernels, counts_.kernels},   {StatId::import_rows_memcpys, counts_.memcpys},
      {StatId::import_rows_memsets, counts_.memsets},   {StatId::import_rows_api_calls, counts_.api_calls},
      {StatId::import_rows_syncs, counts_.syncs},       {StatId::import_rows_ranges, counts_.ranges}};
  for (const auto& [id, value] : tables) {
    writer_->set_stat({trace::stat_name(id), value, trace::Severity::info, std::nullopt});
  }
  // Only sources that carry collective metadata (Kineto) have this table filled.
  if (counts_.collectives > 0) {
    writer_->set_stat(
        {trace::stat_name(StatId::import_rows_collectives), counts_.collectives, trace::Severity::info, std::nullopt});
  }
  // Only sources that record allocations (Kineto with profile_memory, nsys with --cuda-memory-usage) fill it.
  if (counts_.memory_events > 0) {
    writer_->set_stat(
        {trace::stat_name(StatId::import_rows_memory_events), counts_.memory_events, trace::Severity::info, {}});
  }
  // Only sources that record the OS scheduler (nsys) fill it.
  if (counts_.thread_states > 0) {
    writer_->set_stat(
        {trace::stat_name(StatId::import_rows_thread_states), counts_.thread_states, trace::Severity::info, {}});
  }
  if (first_ns_ && last_ns_) {
    writer_->set_meta("start_ns", std::to_string(*first_ns_ + time_offset_ns));
    writer_->set_meta("end_ns", std::to_string(*last_ns_ + time_offset_ns));
  }
}

}  // namespace gpuprof::importers
