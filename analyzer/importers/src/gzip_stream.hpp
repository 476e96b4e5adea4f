#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpuprof::importers {

// The most bytes a gzip file may decompress to: 64 times its own size, at
// least 256 MiB (Kineto JSON compresses 8 to 20 times; a bomb a thousand
// times). GPUPROF_MAX_DECOMPRESSED_BYTES, a byte count, replaces it.
std::uint64_t decompressed_limit(std::uint64_t compressed_bytes);

// A file that may be gzip-compressed (zlib reads plain files through
// unchanged), read into one fixed buffer, whatever the file size. Read errors
// (truncated or corrupt gzip) and decompressing past decompressed_limit()
// throw TraceError::bad_input.
class GzipFile {
 public:
  static constexpr std::size_t kDefaultBufferBytes = 1 << 20;

  explicit GzipFile(const std::string& path, std::size_t buffer_bytes = kDefaultBufferBytes);
  ~GzipFile();
  GzipFile(const GzipFile&) = delete;
  GzipFile& operator=(const GzipFile&) = delete;

  // Replaces the buffer's contents with the next bytes of the file and points
  // [begin, end) at them. At the end of the file the range is one '\0' that is
  // not part of the file, so a reader peeking past the end sees '\0' as before.
  void next(const char*& begin, const char*& end);
  // Where a stream starts: an empty range at file offset 0, so the first read refills.
  const char* start() const { return buffer_.data(); }
  // Called after each refill with the bytes of the file (compressed, as stored)
  // read so far: for a progress line against the file's size.
  void report_file_bytes(std::function<void(std::int64_t)> read) { on_read_ = std::move(read); }
  // Bytes of the file before `position`, a pointer into the current range.
  std::size_t offset_of(const char* position) const {
    return position == &end_of_file_ || position == &end_of_file_ + 1
               ? offset_
               : offset_ + static_cast<std::size_t>(position - buffer_.data());
  }

 private:
  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t offset_ = 0;  // file offset of buffer_[0]; after the end, the file's size
  std::size_t filled_ = 0;  // bytes in buffer_
  std::uint64_t limit_ = 0;  // decompressed bytes allowed; no limit for a plain file
  bool finished_ = false;
  char end_of_file_ = '\0';
  std::function<void(std::int64_t)> on_read_;
};

// A RapidJSON input stream over a GzipFile: two pointers into its buffer,
// checked inline on every byte; the file is only called to refill. RapidJSON
// keeps it by reference (its default for a stream type): local copies
// (StreamTraits::copyOptimization) were measured twice as slow, because the
// pointers, stored in 8-byte halves, are then reloaded in 16-byte loads the CPU
// cannot forward from those stores.
class GzipStream {
 public:
  using Ch = char;

  explicit GzipStream(GzipFile& file) : file_(&file), position_(file.start()), end_(file.start()) {}

  Ch Peek() {
    if (position_ == end_) [[unlikely]] file_->next(position_, end_);
    return *position_;
  }
  Ch Take() {
    if (position_ == end_) [[unlikely]] file_->next(position_, end_);
    return *position_++;
  }
  std::size_t Tell() const { return file_->offset_of(position_); }

  // Write side of the RapidJSON stream concept; never used by the reader.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  // Uncompressed bytes handed to the parser so far.
  std::size_t bytes_read() const { return Tell(); }

 private:
  GzipFile* file_;
  const char* position_;
  const char* end_;
};

}  // namespace gpuprof::importers
