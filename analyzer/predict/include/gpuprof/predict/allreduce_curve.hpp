#pragma once

// The time of an all-reduce of S bytes on N GPUs over one link (DESIGN.md,
// "Prediction", Collectives):
//   t = alpha(N) + S * 2(N-1)/N / busBW(S, N),
// where busBW is the bus bandwidth with the latency taken out, read from
// measured tables (nccl-tests output or look-up tables) and interpolated in
// log(S). nccl-tests' own busbw keeps the latency in (busbw = S*f / t), so using
// it here would count alpha twice; a table's points are therefore turned into
// alpha-free bandwidths once, when the curve is built.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::predict {

// One measured all-reduce: its size and its time.
struct AllReducePoint {
  std::int64_t bytes = 0;
  double time_ns = 0;
};

// The measurements of one GPU count, sorted by size, sizes unique.
struct AllReduceTable {
  std::int32_t gpus = 0;
  std::vector<AllReducePoint> points;
  std::string source;  // a file name or a preset's source, for messages
};

// nccl-tests' bus bandwidth factor of all-reduce, 2(N-1)/N.
double all_reduce_factor(std::int32_t gpus);

class AllReduceCurve {
 public:
  // `hop_latency_ns`: the extra latency per added GPU where a GPU count lies beyond the tables (NCCL's ring
  // model adds 2 hops per GPU); without it the two largest tables' latencies are extrapolated.
  // Throws TraceError::bad_input for no tables or a table without points.
  explicit AllReduceCurve(std::vector<AllReduceTable> tables, std::optional<double> hop_latency_ns = std::nullopt);

  double time_ns(std::int64_t bytes, std::int32_t gpus) const;  // 0 for one GPU or no bytes
  double alpha_ns(std::int32_t gpus) const;
  double bus_gbps(std::int64_t bytes, std::int32_t gpus) const;  // alpha-free, GB/s
  // The GPU counts measured, ascending.
  std::vector<std::int32_t> gpu_counts() const;

 private:
  struct Fitted {
    std::int32_t gpus = 0;
    double alpha_ns = 0;
    std::vector<double> log_bytes, bus_gbps;  // alpha-free bandwidth per kept point
  };
  static Fitted fit(const AllReduceTable& table);
  static double bandwidth_at(const Fitted& fitted, double log_bytes);
  // The tables around `gpus` and the weight of the upper one (0 when one table answers).
  struct Bracket {
    const Fitted* lower;
    const Fitted* upper;
    double weight;
  };
  Bracket bracket(std::int32_t gpus) const;

  std::vector<Fitted> fitted_;
  std::optional<double> hop_latency_ns_;
};

}  // namespace gpuprof::predict
