#pragma once

#include <cupti.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpuprof/collector/activity_translator.hpp"
#include "gpuprof/collector/buffer_pool.hpp"
#include "gpuprof/collector/collector_config.hpp"
#include "gpuprof/collector/process_identity.hpp"
#include "gpuprof/collector/writer_thread.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::collector {

// One recording of the process this library was injected into: the trace file,
// the CUPTI subscription, the buffer pool, the writer thread and the flush timer.
// Every public function catches everything: nothing may escape into the host program.
class CollectorSession {
 public:
  static CollectorSession& instance();

  // Called once from InitializeInjection. Returns false when nothing is recorded.
  bool start() noexcept;
  // Final flush and close; safe to call more than once and from any thread.
  void stop() noexcept;
  // Asks CUPTI to hand over completed buffers (forced: also unfinished ones).
  void flush(bool forced) noexcept;
  bool active() const { return active_.load(); }
  // Called by the flush timer when a termination signal was received.
  void stop_from_timer() noexcept;

  void buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) noexcept;
  void buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t valid) noexcept;

 private:
  CollectorSession() = default;
  bool open_trace();
  bool enable_cupti();
  void record_cupti_failure(const std::string& what, CUptiResult result);
  void translate_buffer(const CompletedBuffer& buffer);
  void end_batch();
  void probe_driver_once();
  void write_runtime_stats();
  void write_final_meta();
  void fail(const std::string& problem) noexcept;
  void start_timer();
  void stop_timer(bool joinable);

  CollectorConfig config_;
  ProcessIdentity identity_;
  std::unique_ptr<trace::TraceWriter> writer_;
  std::unique_ptr<ActivityTranslator> translator_;
  std::unique_ptr<BufferPool> pool_;
  std::unique_ptr<WriterThread> writer_thread_;
  std::vector<ClockPair> calibration_;
  std::vector<trace::StatRow> startup_warnings_;
  pid_t owner_pid_ = 0;
  std::atomic<bool> active_{false};
  std::atomic<bool> failed_{false};
  std::atomic<std::uint64_t> dropped_records_{0};
  std::atomic<std::uint64_t> invalid_buffers_{0};
  bool driver_probed_ = false;
  std::mutex stop_mutex_;
  bool stopped_ = false;
  std::thread timer_;
  int timer_wake_[2] = {-1, -1};
  CUpti_SubscriberHandle subscriber_ = nullptr;

  friend void timer_loop(CollectorSession& session, int wake_descriptor, std::uint32_t interval_ms);
};

}  // namespace gpuprof::collector
