#include "recurrent_algorithm.hpp"

#include <fmt/format.h>

namespace gpuprof::workloads {
namespace {

constexpr int small_h_largest_hidden = 128;  // GRU/LSTM backward; the forward alone allows more
constexpr int persist_multiple = 128;
constexpr int persist_largest_hidden = 1024;
constexpr int persist_fewest_multiprocessors = 98;  // excludes the A30/A40-class parts

bool small_h_fits(const RecurrentAlgorithmQuery& q) {
  return q.compute_major >= 6 && q.hidden >= 1 && q.hidden <= small_h_largest_hidden;
}

bool persist_shape_fits(const RecurrentAlgorithmQuery& q) {
  return q.half_width_data && q.layers == 1 && q.hidden <= persist_largest_hidden &&
         q.hidden % persist_multiple == 0 && q.inputs % persist_multiple == 0;
}

// Where persistent kernels measured faster than standard ones, by GPU generation.
bool persist_device_fits(const RecurrentAlgorithmQuery& q) {
  const int b = q.batch;
  if (q.compute_major == 7 && q.compute_minor != 5) {  // Volta; Turing (7.5) is left out
    const bool batch_ok = (b % 16 == 0 && b != 80 && b != 112) || b == 8;
    return batch_ok && ((q.seq_len >= 40 && b <= 128) || (q.seq_len >= 20 && b <= 96) ||
                        (q.seq_len >= 10 && b <= 32));
  }
  if (q.compute_major >= 8 && q.multiprocessors >= persist_fewest_multiprocessors && q.compute_minor != 6) {
    return q.lstm && b % 8 == 0 && b <= 128;  // persistent GRUs measured flaky: left standard
  }
  return false;
}

}  // namespace

const char* recurrent_algorithm_name(RecurrentAlgorithm algorithm) {
  switch (algorithm) {
    case RecurrentAlgorithm::persist_static: return "persist_static";
    case RecurrentAlgorithm::persist_static_small_h: return "persist_static_small_h";
    case RecurrentAlgorithm::standard: break;
  }
  return "standard";
}

RecurrentAlgorithmChoice choose_recurrent_algorithm(const RecurrentAlgorithmQuery& q) {
  if (!q.automatic) return {RecurrentAlgorithm::standard, "--rnn-algo standard"};
  if (small_h_fits(q)) {
    return {RecurrentAlgorithm::persist_static_small_h,
            fmt::format("hidden {} <= {} on sm_{}{}", q.hidden, small_h_largest_hidden, q.compute_major,
                        q.compute_minor)};
  }
  if (persist_shape_fits(q) && persist_device_fits(q)) {
    return {RecurrentAlgorithm::persist_static,
            fmt::format("bf16, one layer, hidden {}, batch {} on sm_{}{}", q.hidden, q.batch, q.compute_major,
                        q.compute_minor)};
  }
  if (q.compute_major < 6) return {RecurrentAlgorithm::standard, "no persistent kernels before sm_60"};
  return {RecurrentAlgorithm::standard,
          fmt::format("hidden {} > {} and no persistent kernel measured faster for this shape", q.hidden,
                      small_h_largest_hidden)};
}

}  // namespace gpuprof::workloads
