#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"

namespace gpuprof::cli {
namespace {

namespace fs = std::filesystem;

// Installed, both programs live in bin/; in a build tree the GUI is in ../gui/.
std::optional<fs::path> find_gui() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error) return std::nullopt;
  for (const fs::path& candidate : {self.parent_path() / "gpuprof-gui", self.parent_path() / ".." / "gui" / "gpuprof-gui"}) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

int run_gui(const std::vector<std::string>& traces) {
  const auto gui = find_gui();
  if (!gui) {
    fmt::print(stderr,
               "gpuprof: the GUI was not built: no gpuprof-gui next to this gpuprof. Install Qt6 (apt-get install "
               "qt6-base-dev qt6-charts-dev libqt6svg6-dev) and configure with -DGPUPROF_BUILD_GUI=ON.\n");
    return kExitFailure;
  }
  std::vector<std::string> arguments{gui->string()};
  arguments.insert(arguments.end(), traces.begin(), traces.end());
  std::vector<char*> argv;
  for (auto& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  ::execv(gui->c_str(), argv.data());
  // execv only returns on failure.
  fmt::print(stderr, "gpuprof: cannot start {}: {}\n", gui->string(), std::strerror(errno));
  return kExitFailure;
}

}  // namespace

void add_gui_command(CLI::App& app, Action& action) {
  auto traces = std::make_shared<std::vector<std::string>>();
  auto* command = app.add_subcommand("gui", "Open traces (one file per rank) in the desktop app gpuprof-gui");
  command->add_option("traces", *traces, "Trace files, one per rank (gpuprof, Kineto JSON, Nsight or nvprof files), or a job folder");
  command->callback([traces, &action] { action = [traces](const Invocation&) { return run_gui(*traces); }; });
}

}  // namespace gpuprof::cli
