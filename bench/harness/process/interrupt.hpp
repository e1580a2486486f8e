// Ctrl-C and SIGTERM end a sweep cleanly: the row being timed stops at its next sample,
// the rest are reported as not run, and Google Benchmark closes its JSON. A second
// signal kills the process at once (the handler is one-shot).
#pragma once

namespace membench {

/// Installs one-shot handlers for SIGINT and SIGTERM.
void install_interrupt_handlers();
/// While a fresh process runs the rest of a sweep, a signal to membench goes on to it
/// (`child` 0: to nobody; -G: to every process of group G).
void forward_signals_to(int child) noexcept;
/// The signal that asked the run to stop, or 0.
int interrupted_by() noexcept;
/// Exit status for a run stopped by `signal`: 128 + signal, as a shell reports it.
inline int exit_code_for_signal(int signal) noexcept { return 128 + signal; }

}  // namespace membench
