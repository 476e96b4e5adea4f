#pragma once

#include <map>
#include <string>
#include <vector>

namespace gpuprof::launcher {

struct ChildResult {
  // The exit status, or 128 + signal when the program was killed by a signal,
  // or 127 when it could not be started (as a shell reports it).
  int exit_code = 0;
  int signal = 0;            // the signal that ended it, 0 if it exited
  bool started = true;
  std::string start_error;   // why it could not be started
};

// Runs `command` (looked up in PATH) with the current environment plus
// `environment_overrides`, and waits for it. SIGINT and SIGTERM sent to this
// process by another process are forwarded to the child; those sent by the
// terminal already reach the child through its process group. If this process
// dies without forwarding (SIGKILL), the kernel sends the child SIGTERM
// (PR_SET_PDEATHSIG), so a traced program never runs on orphaned.
ChildResult run_child(const std::vector<std::string>& command,
                      const std::map<std::string, std::string>& environment_overrides);

}  // namespace gpuprof::launcher
