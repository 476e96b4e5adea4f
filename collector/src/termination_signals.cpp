#include "termination_signals.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

namespace gpuprof::collector {
namespace {

struct sigaction previous_interrupt {};
struct sigaction previous_terminate {};
std::atomic<int> wake_target{-1};
std::atomic<bool> termination_started{false};
bool installed = false;

struct sigaction& previous_for(int signal_number) {
  return signal_number == SIGINT ? previous_interrupt : previous_terminate;
}

// Async-signal-safe: only sigaction, write, raise and the chained handler.
void on_termination(int signal_number, siginfo_t* info, void* context) {
  const struct sigaction& previous = previous_for(signal_number);
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != nullptr) previous.sa_sigaction(signal_number, info, context);
    return;
  }
  if (previous.sa_handler == SIG_IGN) return;
  if (previous.sa_handler != SIG_DFL && previous.sa_handler != nullptr) {
    previous.sa_handler(signal_number);
    return;
  }
  const int target = wake_target.load();
  // A second signal while the trace is being finished means "stop now".
  if (target < 0 || termination_started.exchange(true)) {
    ::sigaction(signal_number, &previous, nullptr);
    ::raise(signal_number);
    return;
  }
  const unsigned char byte = static_cast<unsigned char>(signal_number);
  if (::write(target, &byte, 1) != 1) {
    ::sigaction(signal_number, &previous, nullptr);
    ::raise(signal_number);
  }
}

}  // namespace

void install_termination_handlers(int wake_descriptor) {
  wake_target = wake_descriptor;
  struct sigaction action {};
  action.sa_sigaction = on_termination;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous_interrupt);
  ::sigaction(SIGTERM, &action, &previous_terminate);
  installed = true;
}

void remove_termination_handlers() {
  wake_target = -1;
  if (!installed) return;
  // Only put the old action back if ours is still in place: the program may have replaced it.
  for (int signal_number : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    ::sigaction(signal_number, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_termination) {
      ::sigaction(signal_number, &previous_for(signal_number), nullptr);
    }
  }
  installed = false;
}

void reraise_with_previous_action(int signal_number) {
  ::sigaction(signal_number, &previous_for(signal_number), nullptr);
  ::raise(signal_number);
}

}  // namespace gpuprof::collector
