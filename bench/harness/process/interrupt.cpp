#include "interrupt.hpp"

#include <signal.h>

#include <csignal>

namespace membench {
namespace {

volatile std::sig_atomic_t g_signal = 0;
volatile std::sig_atomic_t g_child = 0;

extern "C" void on_signal(int sig) {
  if (g_signal == 0) g_signal = sig;  // the first signal is the one reported
  if (g_child != 0) kill(static_cast<pid_t>(g_child), sig);  // negative: a process group
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART;  // the second Ctrl-C takes the default action
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int interrupted_by() noexcept { return static_cast<int>(g_signal); }

void forward_signals_to(int child) noexcept { g_child = child; }

}  // namespace membench
