/*
 * ccc-lifeline: runs one command so that it cannot outlive ccc.
 *
 *   ccc-lifeline -- command [args...]        (fd 3: the lifeline, a socket or pipe to ccc)
 *
 * ccc starts every child (agent turns, the reviewer, rule and hook commands) through this in a
 * process group of its own, which this process leads. It forks the command into the same group
 * and waits. ccc never writes to fd 3 and holds the other end for as long as it lives: the kernel
 * closes that end when ccc dies, by any means, SIGKILL included, so end of file on fd 3 means
 * "ccc is gone", and the whole group gets SIGKILL at once. That is a wake-up from poll, not a
 * poll loop, and it works on every POSIX system (PR_SET_PDEATHSIG is Linux-only and reaches only
 * the direct child, not the shell's or the reviewer's own children).
 *
 * Otherwise it is invisible: signals sent to the group reach the command directly (this process
 * ignores them and waits), and it ends the way the command ended: the same exit code, or the same
 * signal raised on itself. A command that cannot be executed is reported on fd 3 as its errno
 * (4 bytes, native byte order) followed by exit code 127, so ccc can say "command not found".
 * A descendant that moves itself into another process group (setsid) escapes, as before.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LIFELINE 3

static int sigchld_pipe[2] = {-1, -1};
static const int IGNORED[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

static void on_sigchld(int sig) {
  (void)sig;
  int saved = errno;
  if (write(sigchld_pipe[1], "c", 1) < 0) { /* full: a wake-up is already pending */ }
  errno = saved;
}

static void cloexec_nonblock(int fd) {
  fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Forks the command; returns its pid, or -1 after reporting why it could not be executed. */
static pid_t start(char **argv) {
  int errors[2];
  if (pipe(errors) < 0) return -1;
  fcntl(errors[1], F_SETFD, FD_CLOEXEC);
  pid_t pid = fork();
  if (pid == 0) {
    for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++) signal(IGNORED[i], SIG_DFL);
    signal(SIGCHLD, SIG_DFL);
    close(errors[0]);
    execvp(argv[0], argv);
    int err = errno;
    if (write(errors[1], &err, sizeof err) < 0) { /* ccc sees 127 either way */ }
    _exit(127);
  }
  close(errors[1]);
  int err = 0;
  ssize_t got = 0;
  if (pid > 0) {
    while ((got = read(errors[0], &err, sizeof err)) < 0 && errno == EINTR) {}
  } else {
    err = errno;
    got = sizeof err;
  }
  close(errors[0]);
  if (got != sizeof err) return pid;
  if (write(LIFELINE, &err, sizeof err) < 0) fprintf(stderr, "ccc-lifeline: cannot run %s: %s\n", argv[0], strerror(err));
  if (pid > 0) waitpid(pid, NULL, 0);
  return -1;
}

/* Ends this process the way the command ended. */
static int mirror(int status) {
  if (!WIFSIGNALED(status)) return WEXITSTATUS(status);
  int sig = WTERMSIG(status);
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  return 128 + sig; /* a signal whose default is not to terminate */
}

int main(int argc, char **argv) {
  if (argc < 3 || strcmp(argv[1], "--") != 0) {
    fprintf(stderr, "usage: ccc-lifeline -- command [args...]   (fd 3: the lifeline to ccc)\n");
    return 125;
  }
  if (fcntl(LIFELINE, F_GETFD) < 0) {
    fprintf(stderr, "ccc-lifeline: fd 3 (the lifeline to ccc) is not open\n");
    return 125;
  }
  cloexec_nonblock(LIFELINE);
  if (pipe(sigchld_pipe) < 0) return 125;
  cloexec_nonblock(sigchld_pipe[0]);
  cloexec_nonblock(sigchld_pipe[1]);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigchld;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGCHLD, &sa, NULL);
  for (size_t i = 0; i < sizeof IGNORED / sizeof IGNORED[0]; i++) signal(IGNORED[i], SIG_IGN);

  pid_t child = start(argv + 2);
  if (child < 0) return 127;
  close(0); /* the command's stdin is the command's alone: its end of file is not ours to hold */

  for (;;) {
    int status;
    pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return mirror(status);
    struct pollfd p[2] = {{.fd = LIFELINE, .events = POLLIN}, {.fd = sigchld_pipe[0], .events = POLLIN}};
    if (poll(p, 2, -1) < 0 && errno != EINTR) break;
    if (p[0].revents) {
      char byte;
      ssize_t n = read(LIFELINE, &byte, 1);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break; /* ccc is gone */
    }
    if (p[1].revents) {
      char drain[64];
      while (read(sigchld_pipe[0], drain, sizeof drain) > 0) {}
    }
  }
  kill(0, SIGKILL); /* the whole group, this process included */
  return 137;
}
