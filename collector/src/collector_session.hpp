#pragma once

#include <cupti.h>
#include <sys/types.h>

#include <atomic>
#include <condition_variable>
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
  // Final flush and close; safe to call more than once and from any thread. The
  // first caller finishes the trace; a later one waits (bounded) until it is finished.
  void stop() noexcept;
  // Asks CUPTI to hand over completed buffers while recording (timer, flush points).
  void flush() noexcept;
  bool active() const { return active_.load(); }
  // Called by the flush timer when a termination signal was received: stop(), then the signal is raised again.
  void stop_for_signal(int signal_number) noexcept;

  // A kernel launch seen by CUPTI's callback API (the runtime's launch calls).
  // Launches after the recording began to end have no buffer to go to, and are not counted.
  void launch_seen() noexcept {
    if (active_.load(std::memory_order_relaxed)) launches_seen_.fetch_add(1, std::memory_order_relaxed);
  }

  void buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) noexcept;
  void buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t valid) noexcept;

 private:
  CollectorSession() = default;
  bool open_trace();
  bool enable_cupti();
  void record_cupti_failure(const std::string& what, CUptiResult result);
  void translate_buffer(const CompletedBuffer& buffer);
  void note_late_buffer(std::uint8_t* buffer, std::size_t valid);
  void end_batch();
  void probe_driver_once();
  void write_runtime_stats();
  void write_final_meta();
  void flush_all(std::uint32_t flags) noexcept;
  void finish_recording();
  void read_dropped_records();
  void write_loss_checks();
  void wait_until_stopped() noexcept;
  void fail(const std::string& problem) noexcept;
  void catch_termination_signals();
  void start_timer();
  void end_timer();

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
  // Dropped once the pool was closed: what the program did after the recording stopped.
  std::atomic<std::uint64_t> dropped_after_stop_{0};
  std::atomic<std::uint64_t> invalid_buffers_{0};
  std::atomic<std::uint64_t> launches_seen_{0};
  std::atomic<int> pending_signal_{0};
  // Buffers CUPTI handed back after the trace was finished: their records are lost.
  std::atomic<std::uint64_t> late_buffers_{0};
  bool driver_probed_ = false;
  bool subscribed_ = false;
  enum StopState : int { running = 0, stopping = 1, stopped = 2 };
  std::atomic<int> stop_state_{running};
  std::mutex stopped_mutex_;
  std::condition_variable stopped_signal_;
  std::thread timer_;
  int timer_wake_[2] = {-1, -1};
  CUpti_SubscriberHandle subscriber_ = nullptr;

  friend void timer_loop(CollectorSession& session, int wake_descriptor, std::uint32_t interval_ms);
};

}  // namespace gpuprof::collector
