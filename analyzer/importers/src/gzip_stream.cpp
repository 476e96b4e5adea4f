#include "gzip_stream.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {
namespace {

constexpr std::uint64_t kMinimumLimit = std::uint64_t{256} << 20;
constexpr std::uint64_t kRatio = 64;

std::uint64_t compressed_size(const std::string& path) {
  struct stat status {};
  return ::stat(path.c_str(), &status) == 0 ? static_cast<std::uint64_t>(status.st_size) : 0;
}

}  // namespace

std::uint64_t decompressed_limit(std::uint64_t compressed_bytes) {
  if (const char* text = std::getenv("GPUPROF_MAX_DECOMPRESSED_BYTES"); text != nullptr && *text != '\0') {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text, text + std::strlen(text), value);
    if (error == std::errc() && *end == '\0') return value;
  }
  const std::uint64_t scaled = compressed_bytes > std::numeric_limits<std::uint64_t>::max() / kRatio
                                   ? std::numeric_limits<std::uint64_t>::max()
                                   : compressed_bytes * kRatio;
  return std::max(kMinimumLimit, scaled);
}

GzipFile::GzipFile(const std::string& path, std::size_t buffer_bytes)
    : path_(path), buffer_(buffer_bytes > 0 ? buffer_bytes : 1) {
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw TraceError::bad_input(path, "cannot be opened for reading");
  gzbuffer(file_, 1 << 18);
  limit_ = gzdirect(file_) ? std::numeric_limits<std::uint64_t>::max() : decompressed_limit(compressed_size(path));
}

GzipFile::~GzipFile() {
  if (file_ != nullptr) gzclose(file_);
}

void GzipFile::next(const char*& begin, const char*& end) {
  offset_ += filled_;
  filled_ = 0;
  if (!finished_) {
    const int got = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    int error = Z_OK;
    const char* message = gzerror(file_, &error);
    if (got < 0 || (error != Z_OK && error != Z_STREAM_END)) {
      // zlib reports a cut-off gzip member as Z_BUF_ERROR "unexpected end of file".
      const std::string what = error == Z_BUF_ERROR ? "is truncated (the gzip data ends early)"
                                                    : std::string("cannot be decompressed: ") + message;
      throw TraceError::bad_input(path_, what);
    }
    filled_ = static_cast<std::size_t>(got);
    finished_ = got == 0;
    if (on_read_) on_read_(static_cast<std::int64_t>(gzoffset(file_)));
    if (offset_ + filled_ > limit_) {
      throw TraceError::bad_input(path_, "decompresses to more than " + std::to_string(limit_) +
                                             " bytes (a decompression bomb? the limit is 64 times the file, at "
                                             "least 256 MiB; GPUPROF_MAX_DECOMPRESSED_BYTES sets it)");
    }
  }
  if (filled_ == 0) {
    // Taking the '\0' moves past it; the next Peek or Take comes back here.
    begin = &end_of_file_;
    end = &end_of_file_ + 1;
    return;
  }
  begin = buffer_.data();
  end = buffer_.data() + filled_;
}

}  // namespace gpuprof::importers
