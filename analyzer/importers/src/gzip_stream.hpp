#pragma once

#include <zlib.h>

#include <cstddef>
#include <string>
#include <vector>

namespace gpuprof::importers {

// A RapidJSON input stream over a file that may be gzip-compressed (zlib reads
// plain files through unchanged). Memory is one fixed buffer, whatever the
// file size. Read errors (truncated or corrupt gzip) throw TraceError::bad_input.
class GzipStream {
 public:
  using Ch = char;

  explicit GzipStream(const std::string& path);
  ~GzipStream();
  GzipStream(const GzipStream&) = delete;
  GzipStream& operator=(const GzipStream&) = delete;

  Ch Peek() {
    if (position_ == end_) refill();
    return position_ == end_ ? '\0' : *position_;
  }
  Ch Take() {
    if (position_ == end_) refill();
    if (position_ == end_) return '\0';
    ++consumed_;
    return *position_++;
  }
  std::size_t Tell() const { return consumed_; }

  // Write side of the RapidJSON stream concept; never used by the reader.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

  // Uncompressed bytes handed to the parser so far.
  std::size_t bytes_read() const { return consumed_; }

 private:
  void refill();

  std::string path_;
  gzFile file_ = nullptr;
  std::vector<char> buffer_;
  const char* position_ = nullptr;
  const char* end_ = nullptr;
  std::size_t consumed_ = 0;
  bool finished_ = false;
};

}  // namespace gpuprof::importers
