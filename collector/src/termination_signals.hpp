#pragma once

namespace gpuprof::collector {

// Installs SIGINT/SIGTERM handlers that chain to the program's handlers. When the
// program had none (the default action would kill it without running atexit), the
// handler only writes the signal number to `wake_descriptor`; the flush timer then
// finishes the trace and re-raises the signal with the default action.
void install_termination_handlers(int wake_descriptor);
void remove_termination_handlers();
// The signal our handler took on the program's behalf (0: none): the program must still end by it.
int termination_signal_accepted();
// Puts back the action the program had and raises the signal again.
void reraise_with_previous_action(int signal_number);

}  // namespace gpuprof::collector
