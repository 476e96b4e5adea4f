#include "review_dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t factor_stream = 31;
constexpr std::uint64_t document_stream = 32;
constexpr std::uint64_t rating_stream = 33;
// How strongly a document prefers words aligned with its owner's factors: high enough
// that ~100 words reveal the factors, low enough that documents are not all the same words.
constexpr double word_preference = 2.5;

std::vector<float> normal_vectors(int count, DeterministicRandom& random) {
  std::vector<float> values(static_cast<std::size_t>(count) * ReviewCorpus::factors);
  for (float& value : values) value = static_cast<float>(random.normal());
  return values;
}

double scaled_dot(const float* a, const float* b) {
  double sum = 0.0;
  for (int f = 0; f < ReviewCorpus::factors; ++f) sum += static_cast<double>(a[f]) * b[f];
  return sum / std::sqrt(static_cast<double>(ReviewCorpus::factors));
}

// Words are drawn with probability proportional to exp(preference * owner . word).
std::vector<std::int32_t> documents(const std::vector<float>& owners, const std::vector<float>& words, int vocab,
                                    int length, DeterministicRandom& random) {
  const auto count = owners.size() / ReviewCorpus::factors;
  std::vector<std::int32_t> tokens(count * static_cast<std::size_t>(length));
  std::vector<double> cumulative(static_cast<std::size_t>(vocab));
  for (std::size_t owner = 0; owner < count; ++owner) {
    double total = 0.0;
    for (int w = 0; w < vocab; ++w) {
      total += std::exp(word_preference *
                        scaled_dot(&owners[owner * ReviewCorpus::factors], &words[static_cast<std::size_t>(w) *
                                                                                  ReviewCorpus::factors]));
      cumulative[static_cast<std::size_t>(w)] = total;
    }
    for (int t = 0; t < length; ++t) {
      const double pick = random.uniform() * total;
      const auto found = std::upper_bound(cumulative.begin(), cumulative.end(), pick);
      tokens[owner * static_cast<std::size_t>(length) + static_cast<std::size_t>(t)] =
          static_cast<std::int32_t>(std::min<std::ptrdiff_t>(found - cumulative.begin(), vocab - 1));
    }
  }
  return tokens;
}

RatingSet ratings(const ReviewCorpus& corpus, int count, DeterministicRandom& random) {
  RatingSet set;
  for (int i = 0; i < count; ++i) {
    const auto user = static_cast<int>(random.below(static_cast<std::uint64_t>(corpus.users)));
    const auto item = static_cast<int>(random.below(static_cast<std::uint64_t>(corpus.items)));
    const double rating = 3.0 + corpus.affinity(user, item) + 0.2 * random.normal();
    set.users.push_back(user);
    set.items.push_back(item);
    set.ratings.push_back(static_cast<float>(std::clamp(rating, 1.0, 5.0)));
  }
  return set;
}

}  // namespace

const std::int32_t* ReviewCorpus::user_document(int user) const {
  return user_documents.data() + static_cast<std::size_t>(user) * review_len;
}

const std::int32_t* ReviewCorpus::item_document(int item) const {
  return item_documents.data() + static_cast<std::size_t>(item) * review_len;
}

double ReviewCorpus::affinity(int user, int item) const {
  return scaled_dot(&user_factors[static_cast<std::size_t>(user) * factors],
                    &item_factors[static_cast<std::size_t>(item) * factors]);
}

ReviewData generate_review_data(const ReviewDataConfig& config) {
  auto corpus = std::make_shared<ReviewCorpus>();
  corpus->users = config.users;
  corpus->items = config.items;
  corpus->vocab = config.vocab;
  corpus->review_len = config.review_len;
  DeterministicRandom factors(derive_seed(config.seed, factor_stream));
  corpus->user_factors = normal_vectors(config.users, factors);
  corpus->item_factors = normal_vectors(config.items, factors);
  corpus->word_factors = normal_vectors(config.vocab, factors);
  DeterministicRandom words(derive_seed(config.seed, document_stream));
  corpus->user_documents = documents(corpus->user_factors, corpus->word_factors, config.vocab, config.review_len,
                                     words);
  corpus->item_documents = documents(corpus->item_factors, corpus->word_factors, config.vocab, config.review_len,
                                     words);
  DeterministicRandom random(derive_seed(config.seed, rating_stream));
  ReviewData data;
  data.train = ratings(*corpus, config.train_samples, random);
  data.validation = ratings(*corpus, config.validation_samples, random);
  data.corpus = std::move(corpus);
  return data;
}

SampleShape ReviewSamples::shape() const {
  return SampleShape{0, 1, 2 * static_cast<std::size_t>(corpus_->review_len)};
}

void ReviewSamples::write_sample(int index, float* /*inputs*/, float* targets, std::int32_t* ints) const {
  const auto i = static_cast<std::size_t>(index);
  const auto length = static_cast<std::size_t>(corpus_->review_len);
  std::memcpy(ints, corpus_->user_document(ratings_.users[i]), length * sizeof(std::int32_t));
  std::memcpy(ints + length, corpus_->item_document(ratings_.items[i]), length * sizeof(std::int32_t));
  targets[0] = ratings_.ratings[i];
}

}  // namespace gpuprof::workloads
