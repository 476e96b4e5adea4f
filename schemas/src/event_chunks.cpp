#include "event_chunks.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace gpuprof::trace {
namespace {

constexpr int kMaxStoredColumns = 64;
constexpr std::size_t kChecksumBytes = 8;
constexpr int kMaxVarintBytes = 10;

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(value));
}

// Small differences of either sign become small unsigned numbers.
std::uint64_t zigzag(std::uint64_t delta) {
  return (delta << 1) ^ static_cast<std::uint64_t>(static_cast<std::int64_t>(delta) >> 63);
}
std::uint64_t unzigzag(std::uint64_t code) { return (code >> 1) ^ (~(code & 1) + 1); }

// A flipped bit in a blob could still decode to plausible values; a checksum
// catches it. Each step (h ^ word) * odd is a bijection in h, so any change of
// one 8-byte word changes the result; whole words keep it fast (GB/s).
std::uint64_t checksum(std::span<const std::uint8_t> bytes) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ bytes.size();
  std::size_t at = 0;
  for (; at + 8 <= bytes.size(); at += 8) {
    // The 8 bytes as a little-endian word, in one load (assembled byte by byte, 30 instructions a word).
    std::uint64_t word = 0;
    std::memcpy(&word, bytes.data() + at, sizeof word);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
  }
  std::uint64_t tail = 0;
  for (int shift = 0; at < bytes.size(); ++at, shift += 8) tail |= std::uint64_t{bytes[at]} << shift;
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 32);
}

// Reads from [at, end) and never past it; `failed` stays set once a read ran out.
struct Reader {
  const std::uint8_t* at;
  const std::uint8_t* end;
  bool failed = false;

  std::uint64_t varint() {
    if (at != end && *at < 0x80) return *at++;  // most deltas take one byte
    // Times take two or three: read them without a bound check a byte while the longest varint fits.
    if (end - at >= kMaxVarintBytes) {
      const std::uint64_t low = at[0] & 0x7fu;
      if (at[1] < 0x80) return at += 2, low | std::uint64_t{at[-1]} << 7;
      if (at[2] < 0x80) return at += 3, low | std::uint64_t{at[-2] & 0x7fu} << 7 | std::uint64_t{at[-1]} << 14;
    }
    std::uint64_t value = 0;
    for (int byte = 0; byte < kMaxVarintBytes; ++byte) {
      if (at == end) break;
      const std::uint8_t next = *at++;
      // The tenth byte may only carry the 64th bit.
      if (byte == kMaxVarintBytes - 1 && next > 1) break;
      value |= std::uint64_t{next & 0x7fu} << (7 * byte);
      if ((next & 0x80) == 0) return value;
    }
    failed = true;
    return 0;
  }
  std::size_t left() const { return static_cast<std::size_t>(end - at); }
};

std::size_t varint_size(std::uint64_t value) {
  std::size_t bytes = 1;
  for (; value >= 0x80; value >>= 7) ++bytes;
  return bytes;
}

// Decodes one column's section (exactly [reader.at, reader.end)); `nulls` is
// filled only when the column has NULLs, which `has_nulls` then says.
std::string decode_column(Reader reader, std::int64_t rows, std::vector<std::int64_t>& values,
                          std::vector<std::uint8_t>& nulls, std::uint8_t& has_nulls) {
  const auto count = static_cast<std::size_t>(rows);
  values.resize(count);  // every row is written below
  const std::uint64_t null_count = reader.varint();
  if (reader.failed || null_count > count) return "NULL count out of range";
  has_nulls = null_count > 0;
  if (null_count == count) {
    nulls.assign(count, 1);
    std::fill(values.begin(), values.end(), 0);
  } else if (null_count > 0) {
    const std::size_t bitmap_bytes = (count + 7) / 8;
    if (reader.left() < bitmap_bytes) return "NULL bitmap truncated";
    std::uint64_t set = 0;
    for (std::size_t i = 0; i < bitmap_bytes; ++i) set += static_cast<std::uint64_t>(std::popcount(reader.at[i]));
    nulls.resize(count);
    for (std::size_t i = 0; i < count; ++i) nulls[i] = (reader.at[i / 8] >> (i % 8)) & 1;
    const auto in_range = static_cast<std::uint64_t>(std::count(nulls.begin(), nulls.end(), 1));
    if (set != null_count || in_range != null_count) return "NULL bitmap does not match its count";
    reader.at += bitmap_bytes;
  }
  std::uint64_t previous = 0;
  if (!has_nulls) {
    // The usual column, and the loader's hottest loop: a failed read stays failed (and reads as 0), so it
    // is checked once after the loop; the values written meanwhile are thrown away with the chunk.
    for (std::size_t i = 0; i < count;) {
      // Eight one-byte varints at once (device, stream, ids: most deltas are small), the same values one by
      // one would give; eight zero deltas (a constant column) repeat the last value.
      if (count - i >= 8 && reader.left() >= 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, reader.at, sizeof word);
        if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
        if ((word & 0x8080808080808080ull) == 0) {
          if (word == 0) {
            std::fill_n(values.begin() + static_cast<std::ptrdiff_t>(i), 8, static_cast<std::int64_t>(previous));
          } else {
            for (int k = 0; k < 8; ++k) {
              previous += unzigzag((word >> (8 * k)) & 0xffu);
              values[i + static_cast<std::size_t>(k)] = static_cast<std::int64_t>(previous);
            }
          }
          reader.at += 8, i += 8;
          continue;
        }
      }
      previous += unzigzag(reader.varint());
      values[i++] = static_cast<std::int64_t>(previous);
    }
    if (reader.failed) return "values truncated";
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      if (nulls[i]) {
        values[i] = 0;
        continue;
      }
      previous += unzigzag(reader.varint());
      if (reader.failed) return "values truncated";
      values[i] = static_cast<std::int64_t>(previous);
    }
  }
  if (reader.left() != 0) return "bytes left over after the values";
  return {};
}

}  // namespace

void seal_chunk(std::vector<std::uint8_t>& blob) {
  if (blob.size() < kChecksumBytes) blob.resize(kChecksumBytes, 0);
  const auto sum = checksum(std::span(blob).subspan(kChecksumBytes));
  for (std::size_t i = 0; i < kChecksumBytes; ++i) blob[i] = static_cast<std::uint8_t>(sum >> (8 * i));
}

ChunkEncoder::ChunkEncoder(int columns) : columns_(static_cast<std::size_t>(columns)) {}

void ChunkEncoder::put(int column, bool null, std::int64_t value) {
  auto& to = columns_[static_cast<std::size_t>(column)];
  const auto row = static_cast<std::size_t>(rows_);
  if (row % 8 == 0) to.null_bitmap.push_back(0);
  if (null) {
    to.null_bitmap[row / 8] |= static_cast<std::uint8_t>(1u << (row % 8));
    ++to.nulls;
    return;
  }
  const auto bits = static_cast<std::uint64_t>(value);
  put_varint(to.deltas, zigzag(bits - to.previous));  // wraps, as the decoder's sum does
  to.previous = bits;
}

bool ChunkEncoder::add(const RowValues& row) {
  for (int column = 0; column < columns(); ++column) {
    const int type = row.type(column);
    if (type != RowValues::kNull && type != RowValues::kInteger) return false;
  }
  for (int column = 0; column < columns(); ++column) put(column, row.is_null(column), row.i64(column));
  end_row();
  return true;
}

std::vector<std::uint8_t> ChunkEncoder::take_blob() {
  const auto rows = static_cast<std::uint64_t>(rows_);
  std::vector<std::uint8_t> blob(kChecksumBytes, 0);
  for (auto& column : columns_) {
    // The bitmap is stored only when some, not all, rows are NULL.
    const bool with_bitmap = column.nulls > 0 && column.nulls < rows;
    const std::size_t bitmap_bytes = with_bitmap ? column.null_bitmap.size() : 0;
    put_varint(blob, varint_size(column.nulls) + bitmap_bytes + column.deltas.size());
    put_varint(blob, column.nulls);
    if (with_bitmap) blob.insert(blob.end(), column.null_bitmap.begin(), column.null_bitmap.end());
    blob.insert(blob.end(), column.deltas.begin(), column.deltas.end());
    column.deltas.clear(), column.null_bitmap.clear();
    column.nulls = 0, column.previous = 0;
  }
  rows_ = 0;
  seal_chunk(blob);
  return blob;
}

std::string ChunkDecoder::decode(std::span<const std::uint8_t> blob, std::int64_t rows, int stored, int wanted) {
  rows_ = 0;
  if (rows < 1 || rows > kChunkRows) return "row count out of range";
  if (stored < 1 || stored > kMaxStoredColumns) return "column count out of range";
  const int used = std::clamp(wanted, 0, RowValues::kMaxColumns);
  stored_ = std::min(stored, used);
  values_.resize(static_cast<std::size_t>(used));
  nulls_.resize(values_.size());
  has_nulls_.resize(values_.size());
  if (blob.size() < kChecksumBytes) return "shorter than its checksum";
  std::uint64_t stored_sum = 0;
  for (std::size_t i = 0; i < kChecksumBytes; ++i) stored_sum |= std::uint64_t{blob[i]} << (8 * i);
  if (stored_sum != checksum(blob.subspan(kChecksumBytes))) return "checksum does not match";
  Reader reader{blob.data() + kChecksumBytes, blob.data() + blob.size()};
  for (int column = 0; column < stored; ++column) {
    const std::uint64_t length = reader.varint();
    if (reader.failed || length > reader.left()) return "column section truncated";
    const Reader section{reader.at, reader.at + length};
    reader.at += length;
    if (column >= used) continue;  // a column this reader does not use
    auto problem = decode_column(section, rows, values_[column], nulls_[column], has_nulls_[column]);
    if (!problem.empty()) return "column " + std::to_string(column) + ": " + problem;
  }
  if (reader.left() != 0) return "bytes left over after the last column";
  rows_ = rows;
  return {};
}

}  // namespace gpuprof::trace
