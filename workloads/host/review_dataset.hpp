#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sample_source.hpp"

namespace gpuprof::workloads {

struct ReviewDataConfig {
  int users = 0;
  int items = 0;
  int vocab = 0;
  int review_len = 0;
  int train_samples = 0;
  int validation_samples = 0;
  std::uint64_t seed = 1;
};

// The hidden truth behind the synthetic reviews: every user, item and word has a
// latent factor vector. Factors decide the ratings and which words a user's (item's)
// review document uses, so the text carries what the rating depends on, as in DeepCoNN.
struct ReviewCorpus {
  static constexpr int factors = 8;
  int users = 0;
  int items = 0;
  int vocab = 0;
  int review_len = 0;
  std::vector<float> user_factors;            // [users][factors]
  std::vector<float> item_factors;            // [items][factors]
  std::vector<float> word_factors;            // [vocab][factors]
  std::vector<std::int32_t> user_documents;   // [users][review_len] token ids
  std::vector<std::int32_t> item_documents;   // [items][review_len]

  const std::int32_t* user_document(int user) const;
  const std::int32_t* item_document(int item) const;
  // (user factors . item factors) / sqrt(factors): what the rating is made of.
  double affinity(int user, int item) const;
};

// (user, item, rating) triples; ratings in [1, 5].
struct RatingSet {
  std::vector<std::int32_t> users;
  std::vector<std::int32_t> items;
  std::vector<float> ratings;

  int size() const { return static_cast<int>(ratings.size()); }
};

struct ReviewData {
  std::shared_ptr<const ReviewCorpus> corpus;
  RatingSet train;
  RatingSet validation;
};

// Deterministic in the seed. Rating = clamp(3 + affinity + noise/5, 1, 5).
ReviewData generate_review_data(const ReviewDataConfig& config);

// A rating sample for the towers model: ints are the user's document then the item's
// (2 x review_len tokens), the one target is the rating.
class ReviewSamples : public SampleSource {
 public:
  ReviewSamples(std::shared_ptr<const ReviewCorpus> corpus, const RatingSet& ratings)
      : corpus_(std::move(corpus)), ratings_(ratings) {}
  int samples() const override { return ratings_.size(); }
  SampleShape shape() const override;
  void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const override;

 private:
  std::shared_ptr<const ReviewCorpus> corpus_;
  const RatingSet& ratings_;
};

}  // namespace gpuprof::workloads
