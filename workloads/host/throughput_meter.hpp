#pragma once

#include <optional>

namespace gpuprof::workloads {

// What one epoch contributes to the timed throughput.
struct TimedSpan {
  int steps = 0;         // timed steps of the epoch (its warm-up steps left out)
  double seconds = 0.0;  // from the end of the warm-up (or the epoch's start) to the epoch's end
};

// Samples/s over the timed steps only. The first `warmup_steps` of the run pay one-time costs
// (lazy module loading, cuDNN's plan choices, allocator growth, the first batches' copies), so
// they run but are not timed, as frameworks' benchmarks do. The caller supplies the clock, read
// only while every GPU is idle (after a synchronisation), and the steps in run order.
class ThroughputMeter {
 public:
  ThroughputMeter(int warmup_steps, int global_batch);

  // An epoch starts at `now` (seconds) with the GPUs idle.
  void start_epoch(double now);
  // Whether the warm-up ends with step `step` (0-based): then the caller waits for the GPUs and
  // calls warmup_done.
  bool ends_warmup(int step) const { return step + 1 == warmup_steps_; }
  void warmup_done(double now);
  // The epoch's `steps` steps are done on every GPU at `now`.
  TimedSpan end_epoch(int steps, double now);

  int warmup_steps() const { return warmup_steps_; }
  int timed_steps() const { return timed_steps_; }
  double timed_seconds() const { return timed_seconds_; }
  // 0 when no step was timed (or no time passed): never a division by zero.
  double samples_per_second() const;
  static double samples_per_second(const TimedSpan& span, int global_batch);

 private:
  int warmup_steps_;
  int global_batch_;
  int steps_done_ = 0;
  int epoch_first_step_ = 0;
  std::optional<double> timed_from_;
  int timed_steps_ = 0;
  double timed_seconds_ = 0.0;
};

}  // namespace gpuprof::workloads
