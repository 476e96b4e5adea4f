#include "collector_session.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>

#include "collector_log.hpp"
#include "cupti_activities.hpp"
#include "gpuprof/collector/driver_probe.hpp"
#include "gpuprof/launcher/collector_environment.hpp"
#include "gpuprof/launcher/output_claim.hpp"
#include "termination_signals.hpp"

namespace gpuprof::collector {

using trace::stat_name;
using trace::StatId;

namespace {

std::optional<std::string> environment_variable(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

std::int64_t gpu_timestamp() {
  std::uint64_t timestamp = 0;
  if (cuptiGetTimestamp(&timestamp) != CUPTI_SUCCESS) return 0;
  return static_cast<std::int64_t>(timestamp);
}

ClockPair read_clock_pair() { return {gpu_timestamp(), realtime_now_ns()}; }

// One short write with O_APPEND: lines from concurrent processes stay whole.
void append_to_files_list(const std::string& list, const std::string& path) {
  if (list.empty()) return;
  const int descriptor = ::open(list.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (descriptor < 0) return;
  const std::string line = path + "\n";
  [[maybe_unused]] auto written = ::write(descriptor, line.data(), line.size());
  ::close(descriptor);
}

std::string trace_kinds_text(const CollectorConfig& config) {
  std::string text;
  auto add = [&](bool on, const char* name) {
    if (on) text += (text.empty() ? "" : ",") + std::string(name);
  };
  add(config.trace_cuda, "cuda"), add(config.trace_nvtx, "nvtx"), add(config.trace_api, "api");
  add(config.trace_sync, "sync"), add(config.trace_driver, "driver");
  return text;
}

}  // namespace

void timer_loop(CollectorSession& session, int wake_descriptor, std::uint32_t interval_ms) {
  for (;;) {
    pollfd wake{wake_descriptor, POLLIN, 0};
    const int ready = ::poll(&wake, 1, static_cast<int>(interval_ms));
    if (ready < 0) continue;  // EINTR
    if (ready == 0) {
      session.flush();
      continue;
    }
    unsigned char byte = 0;
    if (::read(wake_descriptor, &byte, 1) != 1 || byte == 0) return;  // 0: stop() asked us to end
    // Whoever finishes the trace, the program then ends by the signal, as it would have without us.
    session.stop_for_signal(byte);
    return;
  }
}

CollectorSession& CollectorSession::instance() {
  // Never destroyed: atexit handlers and late CUPTI callbacks may still use it.
  static auto* session = new CollectorSession();
  return *session;
}

bool CollectorSession::start() noexcept {
  try {
    config_ = read_collector_config(environment_variable);
    for (const auto& warning : config_.warnings) log_line(warning);
    identity_ = current_process_identity(environment_variable);
    // Before the file exists: a signal from then on finishes it rather than leaving it half written.
    catch_termination_signals();
    if (!open_trace()) {
      remove_termination_handlers();
      return false;
    }
    if (!enable_cupti()) {
      stop();
      return false;
    }
    start_timer();
    active_ = true;
    return true;
  } catch (const std::exception& error) {
    log_error_once(std::string("collector not started: ") + error.what());
  } catch (...) {
    log_error_once("collector not started: unknown error");
  }
  return false;
}

bool CollectorSession::open_trace() {
  const auto claim = launcher::claim_output_file(config_.output_pattern, launcher::current_process_context(),
                                                 config_.force);
  if (!claim.ok()) {
    log_error_once("not recording this process: " + claim.error);
    return false;
  }
  try {
    trace::WriterOptions options;
    options.path = claim.path;
    options.durability = trace::Durability::crash_safe;
    options.overwrite = true;  // the file was just reserved for us by claim_output_file
    options.tool_version = GPUPROF_VERSION;
    options.build_indexes = false;  // `gpuprof record` builds them once the program has exited
    writer_ = std::make_unique<trace::TraceWriter>(options);
    writer_->set_meta("indexes", "pending");
    write_identity_meta(*writer_, identity_);
    writer_->set_meta("trace_kinds", trace_kinds_text(config_));
    writer_->set_meta("activity_buffer_bytes", std::to_string(config_.buffer_size));
    writer_->set_meta("activity_buffer_count", std::to_string(config_.buffer_count));
    translator_ = std::make_unique<ActivityTranslator>(*writer_, api_name_resolver());
    writer_->flush();
  } catch (const std::exception& error) {
    log_error_once("not recording this process: " + std::string(error.what()));
    writer_.reset();
    return false;
  }
  append_to_files_list(config_.files_list, claim.path);
  return true;
}

void CollectorSession::record_cupti_failure(const std::string& what, CUptiResult result) {
  const std::string message = what + " failed: " + cupti_result_text(result);
  log_error_once("CUPTI could not be initialised, the program runs without recording: " + message);
  try {
    writer_->set_stat(
        {stat_name(StatId::cupti_initialization), static_cast<std::int64_t>(result), trace::Severity::error, message});
    writer_->flush();
  } catch (...) {
    // The trace is best effort here; the program must run anyway.
  }
}

bool CollectorSession::enable_cupti() {
  pool_ = std::make_unique<BufferPool>(config_.buffer_size, config_.buffer_count);
  BatchHandler handler;
  handler.on_buffer = [this](const CompletedBuffer& buffer) { translate_buffer(buffer); };
  handler.on_batch_end = [this] { end_batch(); };
  handler.release = [this](std::uint8_t* buffer, std::size_t used) { pool_->release(buffer, used); };
  handler.on_failure = [this](const std::string& problem) { fail("cannot write the trace: " + problem); };
  writer_thread_ = std::make_unique<WriterThread>(std::move(handler));

  owner_pid_ = ::getpid();
  calibration_.push_back(read_clock_pair());
  writer_->set_meta("start_ns", std::to_string(calibration_.front().gpu_ns));
  writer_->set_meta("clock_calibration", format_clock_calibration(calibration_));
  if (auto version = cupti_version()) writer_->set_meta("cupti_version", std::to_string(*version));
  writer_->flush();

  const auto failure = enable_activities(config_, subscriber_);
  subscribed_ = failure.subscribed;
  if (failure.result != CUPTI_SUCCESS) {
    record_cupti_failure(failure.call, failure.result);
    return false;
  }
  // Written by the writer thread with its first batch: from here on it owns the writer.
  for (const auto& [name, message] : failure.warnings) {
    startup_warnings_.push_back({stat_name(StatId::cupti_warning, name), 1, trace::Severity::warning, message});
  }
  return true;
}

void CollectorSession::buffer_requested(std::uint8_t** buffer, std::size_t* size,
                                        std::size_t* max_records) noexcept {
  *max_records = 0;  // as many as fit
  std::uint8_t* taken = (pool_ && !failed_) ? pool_->acquire() : nullptr;  // closed once stopping
  *buffer = taken;
  *size = taken != nullptr ? pool_->buffer_size() : 0;
}

void CollectorSession::buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer,
                                        std::size_t valid) noexcept {
  try {
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS) {
      (pool_ && pool_->closed() ? dropped_after_stop_ : dropped_records_) += dropped;
    }
    if (buffer == nullptr) return;
    if (stop_state_.load() == stopped) {
      note_late_buffer(buffer, valid);
      return;
    }
    if (writer_thread_) {
      writer_thread_->submit({buffer, valid});
    } else if (pool_) {
      pool_->release(buffer, valid);
    }
  } catch (...) {
    // Queueing failed (out of memory): the records of this buffer are lost, the program goes on.
    invalid_buffers_ += 1;
    if (pool_ && buffer != nullptr) pool_->release(buffer, valid);
  }
}

// The trace is closed: the records can only be counted, and said on stderr.
void CollectorSession::note_late_buffer(std::uint8_t* buffer, std::size_t valid) {
  std::size_t records = 0;
  for_each_record(buffer, valid, [&](const CUpti_Activity&) { ++records; });
  late_buffers_ += 1;
  log_line("CUPTI handed over " + std::to_string(records) +
           " records after the trace was finished; they are not in it");
  if (pool_) pool_->release(buffer, valid);
}

void CollectorSession::translate_buffer(const CompletedBuffer& buffer) {
  probe_driver_once();
  if (!for_each_record(buffer.data, buffer.valid_bytes,
                       [this](const CUpti_Activity& record) { translator_->translate(record); })) {
    invalid_buffers_ += 1;
  }
  translator_->end_batch();
}

void CollectorSession::end_batch() {
  write_runtime_stats();
  translator_->write_counters();
  writer_->flush();
}

// The driver is asked from the writer thread once the first buffer arrives: by
// then cuInit has finished, which is not yet the case inside InitializeInjection.
void CollectorSession::probe_driver_once() {
  if (driver_probed_) return;
  driver_probed_ = true;
  const auto facts = probe_driver();
  if (facts.driver_version) writer_->set_meta("cuda_driver_version", std::to_string(*facts.driver_version));
  if (facts.runtime_version) writer_->set_meta("cuda_runtime_version", std::to_string(*facts.runtime_version));
  for (const auto& device : facts.devices) translator_->merge_device(device);
  for (const auto& link : facts.links) writer_->add(link);
  if (!facts.problem.empty()) {
    writer_->set_stat({stat_name(StatId::driver_probe), 0, trace::Severity::warning, facts.problem});
  }
}

void CollectorSession::write_runtime_stats() {
  for (const auto& warning : startup_warnings_) writer_->set_stat(warning);
  startup_warnings_.clear();
  const auto dropped = static_cast<std::int64_t>(dropped_records_.load());
  writer_->set_stat(
      {stat_name(StatId::dropped_records), dropped, dropped > 0 ? trace::Severity::warning : trace::Severity::info,
       dropped > 0 ? std::optional<std::string>("CUPTI dropped records: buffers were full") : std::nullopt});
  if (pool_) {
    writer_->set_stat({stat_name(StatId::buffers_used), static_cast<std::int64_t>(pool_->buffers_handed_out()),
                       trace::Severity::info, std::nullopt});
    const auto refused = static_cast<std::int64_t>(pool_->requests_refused());
    writer_->set_stat({stat_name(StatId::buffer_requests_refused), refused,
                       refused > 0 ? trace::Severity::warning : trace::Severity::info,
                       refused > 0 ? std::optional<std::string>("every activity buffer was in use; raise "
                                                                "--buffer-size or GPUPROF_BUFFER_COUNT")
                                   : std::nullopt});
  }
  if (const auto after_stop = static_cast<std::int64_t>(dropped_after_stop_.load()); after_stop > 0) {
    writer_->set_stat({stat_name(StatId::records_dropped_after_stop), after_stop, trace::Severity::warning,
                       "records CUPTI made after the recording stopped (the program went on using CUDA, or work "
                       "still running at the stop ended): not in the trace"});
  }
  if (const auto late = pool_ ? static_cast<std::int64_t>(pool_->requests_after_close()) : 0; late > 0) {
    writer_->set_stat({stat_name(StatId::buffer_requests_after_stop), late, trace::Severity::warning,
                       "the program went on using CUDA after the recording ended (a signal or its exit): what it "
                       "did then is not in the trace"});
  }
  if (const auto invalid = static_cast<std::int64_t>(invalid_buffers_.load()); invalid > 0) {
    writer_->set_stat({stat_name(StatId::invalid_buffers), invalid, trace::Severity::warning,
                       "buffers whose records could not be read"});
  }
}

void CollectorSession::fail(const std::string& problem) noexcept {
  if (failed_.exchange(true)) return;
  log_error_once(problem + "; recording stopped, the program continues");
}

void CollectorSession::flush() noexcept {
  if (!active_ || ::getpid() != owner_pid_) return;
  flush_all(0);
}

void CollectorSession::flush_all(std::uint32_t flags) noexcept {
  const CUptiResult result = cuptiActivityFlushAll(flags);
  if (result != CUPTI_SUCCESS && result != CUPTI_ERROR_NOT_INITIALIZED) {
    fail("cuptiActivityFlushAll failed: " + cupti_result_text(result));
  }
}

// A signal that arrives before the timer runs waits in the pipe for it.
void CollectorSession::catch_termination_signals() {
  if (::pipe2(timer_wake_, O_CLOEXEC) != 0) return;  // no timer: flushes happen at exit only
  install_termination_handlers(timer_wake_[1]);
}

void CollectorSession::start_timer() {
  if (timer_wake_[0] < 0) return;
  timer_ = std::thread(timer_loop, std::ref(*this), timer_wake_[0], config_.flush_interval_ms);
  // Never joined: the thread that stops the recording may be this one, or may be
  // waited for by it (a signal during the exit flush). It ends when told to.
  timer_.detach();
}

// After the trace is finished: our signal handlers give way to the program's,
// and the timer ends once it has handled any signal that reached it before.
void CollectorSession::end_timer() {
  remove_termination_handlers();
  if (timer_wake_[1] < 0) return;
  const unsigned char stop_byte = 0;
  [[maybe_unused]] auto written = ::write(timer_wake_[1], &stop_byte, 1);
}

void CollectorSession::stop_for_signal(int signal_number) noexcept {
  pending_signal_ = signal_number;
  stop();
  reraise_with_previous_action(signal_number);
}

void CollectorSession::write_final_meta() {
  calibration_.push_back(read_clock_pair());
  writer_->set_meta("end_ns", std::to_string(calibration_.back().gpu_ns));
  writer_->set_meta("clock_calibration", format_clock_calibration(calibration_));
}

// CUPTI counts drops per queue and resets a count when it is read; records
// dropped after the last buffer completed show up only when asked once more.
void CollectorSession::read_dropped_records() {
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) dropped_records_ += dropped;
}

// Launches that CUPTI's callbacks saw but whose API records never reached us,
// although CUPTI reported no drop: another client took the buffers or turned kinds off.
void CollectorSession::write_loss_checks() {
  const auto outstanding = pool_ ? pool_->buffers_outstanding() : 0;
  if (outstanding > 0) {
    writer_->set_stat({stat_name(StatId::buffers_not_returned), static_cast<std::int64_t>(outstanding),
                       trace::Severity::warning,
                       "activity buffers CUPTI had not handed back when the trace was finished; their records "
                       "are lost"});
  }
  if (!subscribed_ || !config_.trace_api) return;
  const auto seen = static_cast<std::int64_t>(launches_seen_.load());
  const auto recorded = translator_->launches_recorded();
  // Records missing for a reason already counted (drops, refusals, buffers never handed back) are not "taken".
  const bool lost_elsewhere =
      dropped_records_ == 0 && outstanding == 0 &&
      (!pool_ || (pool_->requests_refused() == 0 && pool_->requests_after_close() == 0));
  writer_->set_stat({stat_name(StatId::launches_seen_by_callback), seen, trace::Severity::info, std::nullopt});
  if (seen > recorded && lost_elsewhere) {
    writer_->set_stat({stat_name(StatId::activity_buffers_taken), seen - recorded, trace::Severity::error,
                       "kernel launches without an API record although CUPTI dropped nothing: another CUPTI "
                       "client in the program (e.g. torch.profiler) took the activity buffers or disabled "
                       "activity kinds; the trace is incomplete from then on"});
  }
}

void CollectorSession::finish_recording() {
  // Not active: CUPTI never started, and there is nothing to ask it for.
  const bool was_active = active_.exchange(false);
  if (was_active) {
    flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    read_dropped_records();
  }
  // No buffer is handed out from now on: CUPTI drops (and counts) instead. A thread of
  // the program still using CUDA may have begun a buffer since the flush (a signal's
  // stop runs beside it): a second flush hands that one back too.
  if (pool_) pool_->close();
  if (was_active) flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  if (writer_thread_) writer_thread_->stop();
  if (failed_) return;
  write_final_meta();
  if (dropped_records_ > 0 || invalid_buffers_ > 0 || (pool_ && pool_->requests_refused() > 0)) {
    translator_->records_were_dropped();
  }
  translator_->finish();
  write_runtime_stats();
  write_loss_checks();
  writer_->finish();
}

void CollectorSession::wait_until_stopped() noexcept {
  // Bounded: the program must exit even if the thread finishing the trace is stuck inside CUPTI.
  constexpr auto kLongestWait = std::chrono::seconds(60);
  std::unique_lock lock(stopped_mutex_);
  if (!stopped_signal_.wait_for(lock, kLongestWait, [&] { return stop_state_.load() == stopped; })) {
    log_line("the trace was still being finished after 60 s; the program goes on");
  }
}

void CollectorSession::stop() noexcept {
  // A child forked by the program inherits this object but not our threads; the
  // trace belongs to the parent, so the child must leave it alone.
  if (!writer_ || (owner_pid_ != 0 && ::getpid() != owner_pid_)) return;
  int expected = running;
  if (!stop_state_.compare_exchange_strong(expected, stopping)) {
    wait_until_stopped();
    // The program is exiting while a signal's stop finished the trace: it ends by that signal.
    if (const int signal_number = pending_signal_.load(); signal_number != 0) {
      reraise_with_previous_action(signal_number);
    }
    return;
  }
  try {
    finish_recording();
  } catch (const std::exception& error) {
    fail(std::string("cannot finish the trace: ") + error.what());
  } catch (...) {
    fail("cannot finish the trace");
  }
  {
    std::lock_guard lock(stopped_mutex_);
    stop_state_ = stopped;
  }
  stopped_signal_.notify_all();
  try {
    end_timer();
  } catch (...) {
  }
  // A signal that arrived while the program's exit finished the trace ends the program, as it would have.
  if (const int signal_number = termination_signal_accepted(); signal_number != 0) {
    reraise_with_previous_action(signal_number);
  }
}

}  // namespace gpuprof::collector
