#include "gzip_stream.hpp"

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {

GzipFile::GzipFile(const std::string& path, std::size_t buffer_bytes)
    : path_(path), buffer_(buffer_bytes > 0 ? buffer_bytes : 1) {
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw TraceError::bad_input(path, "cannot be opened for reading");
  gzbuffer(file_, 1 << 18);
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
