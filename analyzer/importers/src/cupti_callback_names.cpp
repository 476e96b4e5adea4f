#include "cupti_callback_names.hpp"

#include <span>

namespace gpuprof::importers {
namespace {

#include "cupti_callback_names.inc"

std::string_view lookup(std::span<const std::string_view> names, std::int64_t callback_id) {
  if (callback_id < 0 || static_cast<std::uint64_t>(callback_id) >= names.size()) return {};
  return names[static_cast<std::size_t>(callback_id)];
}

}  // namespace

std::string_view runtime_callback_name(std::int64_t callback_id) {
  return lookup(kRuntimeCallbackNames, callback_id);
}

std::string_view driver_callback_name(std::int64_t callback_id) { return lookup(kDriverCallbackNames, callback_id); }

}  // namespace gpuprof::importers
