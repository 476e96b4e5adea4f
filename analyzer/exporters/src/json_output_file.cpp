#include "json_output_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "gpuprof/trace/file_publishing.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/output_guard.hpp"

namespace gpuprof::exporters {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kBufferBytes = 1 << 20;

bool ends_with_gz(const std::string& path) { return path.size() > 3 && path.ends_with(".gz"); }

void check_output(const std::string& output, bool overwrite) {
  std::error_code error;
  const auto status = fs::status(output, error);
  refuse_folder_output(output);
  if (fs::exists(status) && !overwrite) {
    throw TraceError::bad_input(output, "already exists (use --force to overwrite)");
  }
}

}  // namespace

JsonOutputFile::JsonOutputFile(std::string output, bool overwrite)
    : output_(std::move(output)),
      staging_(temporary_path_beside(output_)),
      registration_(staging_),
      overwrite_(overwrite),
      compressed_(ends_with_gz(output_)),
      buffer_(kBufferBytes) {
  check_output(output_, overwrite_);
  plain_ = std::fopen(staging_.c_str(), "wbx");
  if (plain_ == nullptr) {
    throw TraceError::bad_input(output_, std::string("cannot create the output file: ") + std::strerror(errno));
  }
  if (!compressed_) return;
  // zlib takes over the descriptor; level 6 is zlib's own balance of size and speed.
  gzip_ = gzdopen(::dup(fileno(plain_)), "wb6");
  std::fclose(plain_);
  plain_ = nullptr;
  if (gzip_ == nullptr) {
    remove_staging();
    throw TraceError::failure(output_, "cannot start gzip compression");
  }
}

JsonOutputFile::~JsonOutputFile() {
  if (published_) return;
  if (plain_ != nullptr) std::fclose(plain_);
  if (gzip_ != nullptr) gzclose(gzip_);
  remove_staging();
}

void JsonOutputFile::drain() {
  if (used_ == 0) return;
  const bool written = compressed_ ? gzwrite(gzip_, buffer_.data(), static_cast<unsigned>(used_)) ==
                                         static_cast<int>(used_)
                                   : std::fwrite(buffer_.data(), 1, used_, plain_) == used_;
  if (!written) throw TraceError::failure(output_, std::string("cannot write: ") + std::strerror(errno));
  used_ = 0;
}

void JsonOutputFile::close() {
  drain();
  if (compressed_) {
    const int result = gzclose(gzip_);
    gzip_ = nullptr;
    if (result != Z_OK) throw TraceError::failure(output_, "cannot finish the gzip stream");
  } else {
    const bool flushed = std::fflush(plain_) == 0 && ::fsync(fileno(plain_)) == 0;
    const bool closed = std::fclose(plain_) == 0;
    plain_ = nullptr;
    if (!flushed || !closed) throw TraceError::failure(output_, std::string("cannot write: ") + std::strerror(errno));
  }
}

void JsonOutputFile::publish() {
  close();
  std::error_code error;
  size_ = static_cast<std::int64_t>(fs::file_size(staging_, error));
  publish_file(staging_, output_, overwrite_);
  published_ = true;
}

void JsonOutputFile::remove_staging() {
  std::error_code ignored;
  fs::remove(staging_, ignored);
}

}  // namespace gpuprof::exporters
