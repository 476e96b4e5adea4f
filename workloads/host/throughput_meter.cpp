#include "throughput_meter.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpuprof::workloads {

ThroughputMeter::ThroughputMeter(int warmup_steps, int global_batch)
    : warmup_steps_(std::max(warmup_steps, 0)), global_batch_(global_batch) {}

void ThroughputMeter::start_epoch(double now) {
  epoch_first_step_ = steps_done_;
  // An epoch that starts after the warm-up is timed from its start; one that holds the end of
  // the warm-up is timed from warmup_done.
  timed_from_.reset();
  if (steps_done_ >= warmup_steps_) timed_from_ = now;
}

void ThroughputMeter::warmup_done(double now) { timed_from_ = now; }

TimedSpan ThroughputMeter::end_epoch(int steps, double now) {
  steps_done_ = epoch_first_step_ + std::max(steps, 0);
  TimedSpan span;
  span.steps = std::max(0, steps_done_ - std::max(epoch_first_step_, warmup_steps_));
  if (span.steps == 0) return span;
  // Steps were timed but the warm-up's end was never reported: the caller skipped warmup_done.
  if (!timed_from_) throw std::logic_error("ThroughputMeter: timed steps without the warm-up's end");
  span.seconds = std::max(0.0, now - *timed_from_);
  timed_steps_ += span.steps;
  timed_seconds_ += span.seconds;
  return span;
}

double ThroughputMeter::samples_per_second(const TimedSpan& span, int global_batch) {
  if (span.steps <= 0 || span.seconds <= 0.0) return 0.0;
  return static_cast<double>(span.steps) * global_batch / span.seconds;
}

double ThroughputMeter::samples_per_second() const {
  return samples_per_second(TimedSpan{timed_steps_, timed_seconds_}, global_batch_);
}

}  // namespace gpuprof::workloads
