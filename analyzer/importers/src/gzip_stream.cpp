#include "gzip_stream.hpp"

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {
namespace {
constexpr std::size_t kBufferBytes = 1 << 20;
}

GzipStream::GzipStream(const std::string& path) : path_(path), buffer_(kBufferBytes) {
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw TraceError::bad_input(path, "cannot be opened for reading");
  gzbuffer(file_, 1 << 18);
  position_ = end_ = buffer_.data();
}

GzipStream::~GzipStream() {
  if (file_ != nullptr) gzclose(file_);
}

void GzipStream::refill() {
  if (finished_) return;
  const int got = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  int error = Z_OK;
  const char* message = gzerror(file_, &error);
  if (got < 0 || (error != Z_OK && error != Z_STREAM_END)) {
    // zlib reports a cut-off gzip member as Z_BUF_ERROR "unexpected end of file".
    const std::string what = error == Z_BUF_ERROR ? "is truncated (the gzip data ends early)"
                                                  : std::string("cannot be decompressed: ") + message;
    throw TraceError::bad_input(path_, what);
  }
  if (got == 0) finished_ = true;
  position_ = buffer_.data();
  end_ = buffer_.data() + got;
}

}  // namespace gpuprof::importers
