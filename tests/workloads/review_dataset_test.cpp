#include "review_dataset.hpp"
#include "sample_source.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace gpuprof::workloads {
namespace {

ReviewDataConfig small_config() { return ReviewDataConfig{200, 150, 1000, 64, 3000, 500, 5}; }

double correlation(const std::vector<double>& a, const std::vector<double>& b) {
  const auto n = static_cast<double>(a.size());
  double ma = 0, mb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  double cov = 0, va = 0, vb = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    cov += (a[i] - ma) * (b[i] - mb);
    va += (a[i] - ma) * (a[i] - ma);
    vb += (b[i] - mb) * (b[i] - mb);
  }
  return cov / std::sqrt(va * vb);
}

// A document's mean word factor: what a reader of the text alone can know about its owner.
std::vector<double> document_estimate(const ReviewCorpus& corpus, const std::int32_t* document) {
  std::vector<double> estimate(ReviewCorpus::factors, 0.0);
  for (int t = 0; t < corpus.review_len; ++t) {
    for (int f = 0; f < ReviewCorpus::factors; ++f) {
      estimate[static_cast<std::size_t>(f)] +=
          corpus.word_factors[static_cast<std::size_t>(document[t]) * ReviewCorpus::factors + f];
    }
  }
  return estimate;
}

TEST(ReviewDataset, SameSeedSameDataDifferentSeedDifferentData) {
  const ReviewData a = generate_review_data(small_config());
  const ReviewData b = generate_review_data(small_config());
  EXPECT_EQ(a.corpus->user_documents, b.corpus->user_documents);
  EXPECT_EQ(a.train.ratings, b.train.ratings);
  ReviewDataConfig other = small_config();
  other.seed = 6;
  EXPECT_NE(generate_review_data(other).train.ratings, a.train.ratings);
}

TEST(ReviewDataset, SizesAndRangesAreAsAsked) {
  const ReviewData data = generate_review_data(small_config());
  EXPECT_EQ(data.train.size(), 3000);
  EXPECT_EQ(data.validation.size(), 500);
  EXPECT_EQ(data.corpus->user_documents.size(), 200U * 64U);
  EXPECT_EQ(data.corpus->item_documents.size(), 150U * 64U);
  for (std::int32_t token : data.corpus->item_documents) ASSERT_TRUE(token >= 0 && token < 1000);
  for (float rating : data.train.ratings) ASSERT_TRUE(rating >= 1.0F && rating <= 5.0F);
}

TEST(ReviewDataset, RatingsFollowTheLatentFactors) {
  const ReviewData data = generate_review_data(small_config());
  std::vector<double> affinity, rating;
  for (int i = 0; i < data.train.size(); ++i) {
    affinity.push_back(data.corpus->affinity(data.train.users[i], data.train.items[i]));
    rating.push_back(data.train.ratings[i]);
  }
  EXPECT_GT(correlation(affinity, rating), 0.9);
}

TEST(ReviewDataset, TheReviewTextRevealsWhatTheRatingDependsOn) {
  const ReviewData data = generate_review_data(small_config());
  const ReviewCorpus& corpus = *data.corpus;
  std::vector<double> from_text, rating;
  for (int i = 0; i < data.train.size(); ++i) {
    const auto user = document_estimate(corpus, corpus.user_document(data.train.users[i]));
    const auto item = document_estimate(corpus, corpus.item_document(data.train.items[i]));
    double dot = 0.0;
    for (std::size_t f = 0; f < user.size(); ++f) dot += user[f] * item[f];
    from_text.push_back(dot);
    rating.push_back(data.train.ratings[i]);
  }
  // A crude bag-of-words estimate already predicts ratings well; the towers can learn more.
  EXPECT_GT(correlation(from_text, rating), 0.5);
}

TEST(ReviewDataset, SamplesCarryBothDocumentsAndTheRating) {
  const ReviewData data = generate_review_data(small_config());
  const ReviewSamples samples(data.corpus, data.train);
  const SampleShape shape = samples.shape();
  EXPECT_EQ(shape.inputs, 0U);
  EXPECT_EQ(shape.targets, 1U);
  EXPECT_EQ(shape.ints, 128U);
  std::vector<std::int32_t> ints(shape.ints);
  float rating = 0.0F;
  samples.write_sample(7, nullptr, &rating, ints.data());
  EXPECT_EQ(rating, data.train.ratings[7]);
  EXPECT_EQ(ints[0], data.corpus->user_document(data.train.users[7])[0]);
  EXPECT_EQ(ints[64], data.corpus->item_document(data.train.items[7])[0]);
  EXPECT_EQ(ints[127], data.corpus->item_document(data.train.items[7])[63]);
}

// The trainer's path: a shuffled epoch order, gathered on several loader threads. Every row
// must keep its rating with its own user's and item's documents, whole.
TEST(ReviewDataset, ShuffledBatchesKeepEachRatingWithItsDocuments) {
  const ReviewData data = generate_review_data(small_config());
  const ReviewSamples samples(data.corpus, data.train);
  const std::size_t tokens = samples.shape().ints;
  const std::size_t length = tokens / 2;
  const std::vector<std::int32_t> order = epoch_order(samples.samples(), 5, 3);
  constexpr int first = 64;
  constexpr int count = 64;
  std::vector<std::int32_t> ints(count * tokens);
  std::vector<float> ratings(count);
  gather_samples(samples, order, first, count, nullptr, ratings.data(), ints.data(), 4);
  for (int row = 0; row < count; ++row) {
    const auto sample = static_cast<std::size_t>(order[static_cast<std::size_t>(first + row)]);
    const std::int32_t* user = data.corpus->user_document(data.train.users[sample]);
    const std::int32_t* item = data.corpus->item_document(data.train.items[sample]);
    const std::int32_t* written = ints.data() + static_cast<std::size_t>(row) * tokens;
    EXPECT_EQ(ratings[static_cast<std::size_t>(row)], data.train.ratings[sample]) << "row " << row;
    EXPECT_TRUE(std::equal(user, user + length, written)) << "user document of row " << row;
    EXPECT_TRUE(std::equal(item, item + length, written + length)) << "item document of row " << row;
  }
}

}  // namespace
}  // namespace gpuprof::workloads
