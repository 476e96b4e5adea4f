#pragma once

#include <cmath>
#include <cstdint>

namespace gpuprof::workloads {

// splitmix64: tiny, fast and, unlike the std:: distributions, gives the same
// numbers with every standard library, so a --seed means the same run everywhere.
class DeterministicRandom {
 public:
  explicit DeterministicRandom(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  // Standard normal by Box-Muller; one value per call keeps the stream simple.
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]: log stays finite
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // Uniform integer in [0, bound).
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }

 private:
  std::uint64_t state_;
};

// Independent streams for different purposes derived from one user seed.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t purpose) {
  DeterministicRandom random(seed ^ (purpose * 0xD1B54A32D192ED03ULL));
  return random.next();
}

}  // namespace gpuprof::workloads
