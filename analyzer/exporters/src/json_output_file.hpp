#pragma once

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpuprof/trace/temporary_files.hpp"

namespace gpuprof::exporters {

// A RapidJSON output stream into a staging file beside the output, gzip-
// compressed when the output name ends in ".gz". Nothing is visible under the
// output name until publish(); a file destroyed unpublished removes its staging
// file, so a failed export leaves nothing behind.
class JsonOutputFile {
 public:
  using Ch = char;

  // Throws TraceError::bad_input when the output exists (without overwrite) or
  // its folder cannot take a new file.
  JsonOutputFile(std::string output, bool overwrite);
  ~JsonOutputFile();
  JsonOutputFile(const JsonOutputFile&) = delete;
  JsonOutputFile& operator=(const JsonOutputFile&) = delete;

  void Put(Ch c) {
    if (used_ == buffer_.size()) drain();
    buffer_[used_++] = c;
  }
  void Flush() {}  // the Writer calls this once, at the end of the document; publish() drains the buffer

  // Writes what is buffered, closes the file and renames it into place.
  void publish();
  // Bytes of the published file.
  std::int64_t size() const { return size_; }

 private:
  void drain();
  void close();
  void remove_staging();

  std::string output_, staging_;
  TemporaryName registration_;  // a signal removes the staging file
  bool overwrite_ = false, compressed_ = false, published_ = false;
  std::FILE* plain_ = nullptr;
  gzFile gzip_ = nullptr;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
  std::int64_t size_ = 0;
};

}  // namespace gpuprof::exporters
