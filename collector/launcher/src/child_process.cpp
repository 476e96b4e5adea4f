#include "gpuprof/launcher/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gpuprof::launcher {
namespace {

// Read by the signal handler; only one child runs at a time.
volatile sig_atomic_t running_child = 0;

void forward_signal(int signal_number, siginfo_t* info, void*) {
  // Terminal-generated signals (SI_KERNEL) already went to the child's process group;
  // forwarding them too would deliver them twice.
  const bool sent_by_process = info == nullptr || info->si_code == SI_USER || info->si_code == SI_QUEUE;
  const pid_t child = static_cast<pid_t>(running_child);
  if (sent_by_process && child > 0) ::kill(child, signal_number);
}

class SignalForwarding {
 public:
  SignalForwarding() {
    struct sigaction action {};
    action.sa_sigaction = forward_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &previous_interrupt_);
    ::sigaction(SIGTERM, &action, &previous_terminate_);
  }
  ~SignalForwarding() {
    ::sigaction(SIGINT, &previous_interrupt_, nullptr);
    ::sigaction(SIGTERM, &previous_terminate_, nullptr);
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;

 private:
  struct sigaction previous_interrupt_ {};
  struct sigaction previous_terminate_ {};
};

// Blocks SIGINT and SIGTERM while alive, restoring the mask it found; release()
// restores it early. Blocked signals stay pending, none is lost.
class HeldSignals {
 public:
  HeldSignals() {
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGINT);
    sigaddset(&both, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &both, &previous_);
  }
  ~HeldSignals() { release(); }
  void release() const { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }
  HeldSignals(const HeldSignals&) = delete;
  HeldSignals& operator=(const HeldSignals&) = delete;

 private:
  sigset_t previous_{};
};

// Built before fork, so the child only calls async-signal-safe functions before exec.
std::vector<std::string> child_environment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> entries;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const auto equals = text.find('=');
    if (overrides.count(text.substr(0, equals)) == 0) entries.push_back(text);
  }
  for (const auto& [name, value] : overrides) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<char*> pointers_to(const std::vector<std::string>& texts) {
  std::vector<char*> pointers;
  for (const auto& text : texts) pointers.push_back(const_cast<char*>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

[[noreturn]] void exec_child(char* const* arguments, char* const* environment, int error_pipe) {
  ::execvpe(arguments[0], arguments, environment);
  const int error = errno;
  [[maybe_unused]] auto written = ::write(error_pipe, &error, sizeof error);
  ::_exit(127);
}

// Returns the errno of a failed exec, or 0 when exec succeeded (the pipe closed).
int read_exec_error(int error_pipe) {
  int error = 0;
  ssize_t got = 0;
  do {
    got = ::read(error_pipe, &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  return got == static_cast<ssize_t>(sizeof error) ? error : 0;
}

int wait_for(pid_t child) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& command,
                      const std::map<std::string, std::string>& environment_overrides) {
  ChildResult result;
  if (command.empty()) {
    result = {127, 0, false, "no command given"};
    return result;
  }
  int error_pipe[2];
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) {
    result = {127, 0, false, std::string("pipe: ") + std::strerror(errno)};
    return result;
  }
  const auto environment_entries = child_environment(environment_overrides);
  const auto environment = pointers_to(environment_entries);
  const auto arguments = pointers_to(command);
  // Installed before fork, and the two signals held back until running_child is
  // set: one sent after fork but before the parent stored the pid was dropped
  // (seen on a loaded 2-core machine: the program started, the launcher was sent
  // SIGTERM, and it ran to its end).
  SignalForwarding forwarding;
  const HeldSignals held;
  const pid_t launcher = ::getpid();
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(error_pipe[0]);
    // The program must not outlive a launcher killed by SIGKILL: the kernel sends
    // it SIGTERM then (the collector's own handler still writes the trace). If the
    // launcher died before this line, the parent is already someone else.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher) ::_exit(128 + SIGTERM);
    // The child starts with the default dispositions the program expects.
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    held.release();
    exec_child(arguments.data(), environment.data(), error_pipe[1]);
  }
  ::close(error_pipe[1]);
  if (child < 0) {
    ::close(error_pipe[0]);
    result = {127, 0, false, std::string("fork: ") + std::strerror(errno)};
    return result;
  }
  running_child = child;
  held.release();  // a signal that came meanwhile is delivered now, and forwarded
  const int exec_error = read_exec_error(error_pipe[0]);
  ::close(error_pipe[0]);
  const int status = wait_for(child);
  running_child = 0;
  if (exec_error != 0) {
    result = {127, 0, false, command[0] + ": " + std::strerror(exec_error)};
  } else if (status >= 0 && WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + result.signal;
  } else if (status >= 0 && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else {
    result.exit_code = 1;
  }
  return result;
}

}  // namespace gpuprof::launcher
