/*
 * ccc-relay: the byte path of a supervised interactive session, outside the JavaScript event loop.
 *
 *   ccc-relay [--tee-output] [--tail-bytes N] [--cols N --rows N] [--inject-idle-ms N]
 *             [--drain-quiet-ms N] [--drain-max-ms N] [--redraw-nudge-ms N] [--hold-fd N]
 *             -- command [args...]
 *
 * Runs `command` in a new pseudo-terminal and copies bytes between it and the user's terminal
 * (fd 0 and fd 1) with one poll loop, the way script(1) does: no Node event loop, no stream
 * machinery, no copies. Everything ccc needs from the byte path goes over fd 3, a socket to the
 * ccc process, in both directions and never on the byte path's critical section:
 *
 *   frames:  type (1 byte) | length (u32 little endian) | payload
 *
 *   relay -> ccc   'P' pid (i32)        the agent started
 *                  'E' text             the agent could not be started (then 'X' with 127)
 *                  'O' bytes            what the user's terminal received (only with the tee on)
 *                  'R' bytes            the last --tail-bytes of that output, sent when the tee
 *                                       is switched on: what a screen mirror needs to catch up
 *                                       (cut to its newest bytes while ccc is behind: TEE_LIMIT)
 *                  'G' lost (u64)       the tee fell more than TEE_LIMIT behind; bytes were lost
 *                  'I' bytes            what the user typed, in batches
 *                  'S' active (u8)      the agent entered (1) or left (0) the alternate screen
 *                  'X' code, signal     the agent exited and its last output was drained
 *   ccc -> relay   'T' bytes            write to the user's terminal where it cannot split a sequence
 *                  'W' bytes            send to the agent as if typed
 *                  'K' signal (i32)     signal the agent
 *                  'R' cols, rows (u16) resize the agent's terminal
 *                  'O' on (u8)          tee the user's output to ccc, or stop (ccc switches it
 *                                       on only while observers watch: otherwise it costs nothing)
 *
 * The user's terminal is put in raw mode (cfmakeraw) and restored, with the modes a TUI may leave
 * on switched off, before the relay exits with the agent's code (128 + signal when killed),
 * after its 'X' report and, on a socket, once ccc has closed its end of fd 3 (bounded).
 * If ccc dies (end of file on fd 3; the kernel closes ccc's end even on SIGKILL) the relay gives
 * the terminal back at once, before the shell that waited for ccc reads from it: termios and the
 * mode resets now, the agent's output discarded from then on, the user's keys left to the shell.
 * Then it ends the agent's process group (SIGHUP, SIGKILL after KILL_GRACE_MS) and exits.
 *
 * --hold-fd N: a socket to the process the user's shell waits for (ccc's front, src/cli/front.cts),
 * which exits only once every holder of its other end has closed it. The relay closes it as soon
 * as the terminal is given back, by whatever path: so after a kill -9 of ccc the shell resumes
 * only after the restore, whatever the load. End of file there means the front is gone and the
 * shell has the terminal: the relay gives it back and ends the agent, reporting to ccc as usual.
 *
 * Job control. The agent runs as a job of a one-job shell: a forked copy of the relay leads the
 * pty's session and runs the agent in a process group of its own, the pty's foreground. A session
 * leader's own group has no parent in its session, so the kernel discards a SIGTSTP sent to it (an
 * orphaned process group): a TUI that stops itself on Ctrl-Z (claude sends SIGTSTP to its group)
 * would not stop. As a job it does; the leader sees the stop and stops itself (SIGSTOP), which the
 * relay sees. The relay then gives the user's terminal back as a shell expects it (termios as they
 * were, the alternate screen left, the modes a TUI may leave on switched off) and stops the job it
 * is part of, ccc's process group, with SIGTSTP: the user's shell shows ccc as stopped. A SIGTSTP
 * to the relay does the same with the agent frozen (SIGSTOP). On SIGCONT in the foreground (`fg`)
 * the terminal goes raw again, the agent continues and is made to redraw by a size nudge. Found in
 * the background (ccc stopped from outside, `bg`, started with `&`) the relay does not touch the
 * terminal: it freezes the agent and stops the job with SIGTTOU, as a TUI reading or writing
 * there would be. Without job control (the stop would be discarded) the agent continues at once.
 *
 * The byte path's rules (where a sequence ends, the alternate screen, the mode resets, the timing)
 * are ccc's, shared with its Node proxy: byte-path-rules.h is generated from
 * src/pty/byte-path-rules.ts, and ccc passes the timing it uses as arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "byte-path-rules.h"

#define CHAN 3
#define READ_SIZE 65536
#define TEE_LIMIT (4u << 20)       /* output queued for ccc before the tee drops bytes */
#define INPUT_LIMIT (1u << 20)     /* typed bytes waiting for the agent, and for ccc */
#define INPUT_BATCH 4096
#define INPUT_FLUSH_MS 200
#define EXIT_REPORT_MS 30000       /* how long the exit report waits for a busy ccc to read it */
#define KILL_GRACE_MS 1000         /* after ccc died: from SIGHUP to SIGKILL of the agent's group */
#define SUSPEND_DRAIN_LIMIT (4u << 20) /* the stopped agent's last output read before the terminal is given back */

#define ALT_LEN (sizeof RULE_ALT_SCREEN_PREFIX - 1)
static long long inject_idle_ms = RULE_INJECT_IDLE_MS, drain_quiet_ms = RULE_DRAIN_QUIET_MS, drain_max_ms = RULE_DRAIN_MAX_MS, redraw_nudge_ms = RULE_REDRAW_NUDGE_MS;

typedef struct {
  unsigned char *data;
  size_t head, len, cap;
} queue_t;

static void flush_blocking(queue_t *q, int fd, int timeout_ms);
static void await_ccc_close(long long until);
static int signal_pipe[2] = {-1, -1};
static int master = -1;
/* `child` leads the pty's session; `agent` is its one job, in a process group of its own. */
static pid_t child = -1, agent = -1;
static int child_status = 0, child_exited = 0;
/* Job control: the agent reported stopped; why the job must stop (0: it need not); the alternate
   screen left for the shell at a stop; the SIGCONTs received, and those already acted on. */
enum { STOP_NONE, STOP_AGENT, STOP_ASKED, STOP_BACKGROUND };
static int agent_stopped = 0, stop_wanted = STOP_NONE, alt_left = 0, no_job_control = 0;
static volatile sig_atomic_t conts_received = 0;
static sig_atomic_t conts_handled = 0;
static pid_t own_pgrp = 0;
/* A redraw nudge in progress: the agent's real size goes back at nudge_until. */
static long long nudge_until = 0;
static struct winsize nudge_real;
static long long exited_at = 0, drain_from = 0, last_output_at = 0, input_batch_since = 0, ccc_gone_at = 0;
static struct termios saved_mode, raw_mode;
static int user_tty = 0, terminal_restored = 0;
static int hold_fd = -1; /* --hold-fd: closed once the terminal is given back */
static int stdin_open = 1, master_eof = 0, chan_open = 1, tee_on = 0, alt_active = 0, last_unsafe = 0;
static unsigned long long tee_lost = 0;
static unsigned char alt_carry[ALT_LEN];
static size_t alt_carry_len = 0;
static queue_t to_user, to_agent, to_ccc, input_batch, injection, from_ccc;
/* The last output, kept while the tee is off: a ring of tail_cap bytes. */
static unsigned char *tail_ring = NULL;
static size_t tail_cap = 0, tail_len = 0, tail_at = 0;

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *what) {
  fprintf(stderr, "ccc-relay: %s: %s\n", what, strerror(errno));
  exit(125);
}

static unsigned char *queue_tail(queue_t *q, size_t n) {
  if (q->head > 0 && q->head + q->len + n > q->cap) {
    memmove(q->data, q->data + q->head, q->len);
    q->head = 0;
  }
  if (q->len + n > q->cap) {
    size_t cap = q->cap ? q->cap : 4096;
    while (cap < q->len + n) cap *= 2;
    unsigned char *data = realloc(q->data, cap);
    if (!data) die("out of memory");
    q->data = data;
    q->cap = cap;
  }
  unsigned char *tail = q->data + q->head + q->len;
  q->len += n;
  return tail;
}

static void queue_push(queue_t *q, const void *bytes, size_t n) {
  if (n) memcpy(queue_tail(q, n), bytes, n);
}

static void queue_drop(queue_t *q, size_t n) {
  q->head += n;
  q->len -= n;
  if (q->len == 0) q->head = 0;
}

static void queue_clear(queue_t *q) { q->head = q->len = 0; }

/* Writes as much of the queue as the fd takes now; -1 when the fd is gone. */
static int queue_flush(queue_t *q, int fd) {
  while (q->len) {
    ssize_t n = write(fd, q->data + q->head, q->len);
    if (n > 0) {
      queue_drop(q, (size_t)n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return 0;
    } else {
      queue_clear(q);
      return -1;
    }
  }
  return 0;
}

/* Writes now when nothing is queued before it; otherwise (or for what the fd did not take) queues. */
static int write_or_queue(queue_t *q, int fd, const unsigned char *bytes, size_t n) {
  if (q->len == 0) {
    while (n) {
      ssize_t w = write(fd, bytes, n);
      if (w > 0) {
        bytes += w;
        n -= (size_t)w;
      } else if (w < 0 && errno == EINTR) {
        continue;
      } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        break;
      } else {
        return -1;
      }
    }
  }
  queue_push(q, bytes, n);
  return 0;
}

static void frame_header(char type, size_t n) {
  unsigned char header[5] = {(unsigned char)type, n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >> 24) & 0xff};
  queue_push(&to_ccc, header, 5);
}

static void frame(char type, const void *payload, size_t n) {
  if (!chan_open) return;
  frame_header(type, n);
  queue_push(&to_ccc, payload, n);
}

static void frame_i32s(char type, int32_t a, int32_t b, int count) {
  unsigned char p[8];
  for (int i = 0; i < 4; i++) p[i] = ((uint32_t)a >> (8 * i)) & 0xff;
  for (int i = 0; i < 4; i++) p[4 + i] = ((uint32_t)b >> (8 * i)) & 0xff;
  frame(type, p, 4 * (size_t)count);
}

/* The bytes the copy lost, once there is room to say so (and at the end): ccc's copy plus the
   gaps is what the terminal got. */
static void report_gap(void) {
  if (!tee_lost || !chan_open) return;
  unsigned char p[8];
  for (int i = 0; i < 8; i++) p[i] = (tee_lost >> (8 * i)) & 0xff;
  frame('G', p, 8);
  tee_lost = 0;
}

/* A copy of what the user's terminal received, for observers: bounded, never waited for. */
static void tee_output(const unsigned char *bytes, size_t n) {
  if (!tee_on || !chan_open) return;
  if (to_ccc.len + n + 5 > TEE_LIMIT) {
    tee_lost += n;
    return;
  }
  report_gap();
  frame('O', bytes, n);
}

static void keep_tail(const unsigned char *bytes, size_t n) {
  if (!tail_cap) return;
  if (n >= tail_cap) {
    memcpy(tail_ring, bytes + n - tail_cap, tail_cap);
    tail_at = 0;
    tail_len = tail_cap;
    return;
  }
  size_t first = tail_cap - tail_at < n ? tail_cap - tail_at : n;
  memcpy(tail_ring + tail_at, bytes, first);
  memcpy(tail_ring, bytes + first, n - first);
  tail_at = (tail_at + n) % tail_cap;
  tail_len = tail_len + n > tail_cap ? tail_cap : tail_len + n;
}

/* The tail, oldest byte first, as one 'R' frame, every time the tee is switched on (ccc waits for
   it). Bounded like the tee: the queue to ccc never holds more than TEE_LIMIT of output and tails,
   however often a slow ccc switches the tee on and off, so a tail asked for while ccc is behind
   is cut to its newest bytes that fit, down to none. A cut tail costs the next late joiner some
   scrollback, never a byte of the live copy or of the user's terminal. */
static void send_tail(void) {
  if (!chan_open) return;
  size_t room = to_ccc.len + 5 < TEE_LIMIT ? TEE_LIMIT - to_ccc.len - 5 : 0;
  size_t len = tail_len < room ? tail_len : room;
  frame_header('R', len);
  size_t start = (tail_at + tail_cap - len) % (tail_cap ? tail_cap : 1);
  size_t first = tail_cap - start < len ? tail_cap - start : len;
  queue_push(&to_ccc, tail_ring + start, first);
  queue_push(&to_ccc, tail_ring, len - first);
}

/* --- where ccc's own bytes may go: the rules of byte-path-rules.h, as src/pty/terminal-modes.ts applies them --- */

/* Whether the output so far ends inside a sequence, by the state table: exact across reads, read
   from the chunk's last ESC (every state goes to RULE_VT_ESCAPE there) or, with no ESC and nothing
   open, from its last four bytes (a UTF-8 character at most). */
static unsigned char vt_state = RULE_VT_GROUND;

static void track_sequences(const unsigned char *b, size_t n) {
  const unsigned char *esc = memrchr(b, RULE_ESC, n);
  size_t from = 0;
  if (esc) {
    vt_state = RULE_VT_GROUND;
    from = (size_t)(esc - b);
  } else if (vt_state == RULE_VT_GROUND && n > 4) {
    from = n - 4;
  }
  for (size_t i = from; i < n; i++) vt_state = RULE_VT_NEXT[vt_state][b[i]];
}

/* The last enter or leave of the alternate screen decides; a sequence split across reads counts. */
static void track_alt_screen(const unsigned char *b, size_t n) {
  int state = -1;
  if (alt_carry_len) {
    unsigned char window[2 * ALT_LEN + 1];
    size_t take = n < ALT_LEN + 1 ? n : ALT_LEN + 1;
    memcpy(window, alt_carry, alt_carry_len);
    memcpy(window + alt_carry_len, b, take);
    size_t wlen = alt_carry_len + take;
    for (size_t at = 0; at < alt_carry_len && at + ALT_LEN < wlen; at++)
      if (memcmp(window + at, RULE_ALT_SCREEN_PREFIX, ALT_LEN) == 0 && (window[at + ALT_LEN] == RULE_ALT_SCREEN_ENTER || window[at + ALT_LEN] == RULE_ALT_SCREEN_LEAVE))
        state = window[at + ALT_LEN] == RULE_ALT_SCREEN_ENTER;
  }
  const unsigned char *p = b, *end = b + n;
  while (p < end) {
    const unsigned char *hit = memmem(p, (size_t)(end - p), RULE_ALT_SCREEN_PREFIX, ALT_LEN);
    if (!hit || hit + ALT_LEN >= end) break;
    if (hit[ALT_LEN] == RULE_ALT_SCREEN_ENTER || hit[ALT_LEN] == RULE_ALT_SCREEN_LEAVE) state = hit[ALT_LEN] == RULE_ALT_SCREEN_ENTER;
    p = hit + 1;
  }
  if (n >= ALT_LEN) {
    memcpy(alt_carry, end - ALT_LEN, ALT_LEN);
    alt_carry_len = ALT_LEN;
  } else {
    size_t keep = alt_carry_len + n > ALT_LEN ? ALT_LEN - n : alt_carry_len;
    memmove(alt_carry, alt_carry + alt_carry_len - keep, keep);
    memcpy(alt_carry + keep, b, n);
    alt_carry_len = keep + n;
  }
  if (state != -1 && state != alt_active) {
    alt_active = state;
    unsigned char s = (unsigned char)state;
    frame('S', &s, 1);
  }
}

static void write_injection(void) {
  if (!injection.len) return;
  write_or_queue(&to_user, 1, injection.data + injection.head, injection.len);
  tee_output(injection.data + injection.head, injection.len);
  keep_tail(injection.data + injection.head, injection.len);
  queue_clear(&injection);
}

/* Whether the user's terminal belongs to another process group: the shell's, after ccc was stopped
   from outside or put in the background. What the agent writes then waits, and the job stops. */
static int in_background(void) {
  if (!user_tty || no_job_control) return 0;
  pid_t foreground = tcgetpgrp(0);
  return foreground > 0 && foreground != own_pgrp;
}

static void on_output(const unsigned char *bytes, size_t n) {
  if (ccc_gone_at) return; /* the terminal is the shell's again */
  if (in_background()) {
    queue_push(&to_user, bytes, n);
    stop_wanted = STOP_BACKGROUND;
  } else {
    write_or_queue(&to_user, 1, bytes, n);
  }
  last_output_at = now_ms();
  track_sequences(bytes, n);
  last_unsafe = vt_state != RULE_VT_GROUND;
  track_alt_screen(bytes, n);
  tee_output(bytes, n);
  keep_tail(bytes, n);
  if (injection.len && !last_unsafe) write_injection();
}

/* The read took no more than the queue has room for (INPUT_LIMIT): every typed byte reaches the agent. */
static void on_input(const unsigned char *bytes, size_t n) {
  write_or_queue(&to_agent, master, bytes, n);
  if (!chan_open || input_batch.len + n > INPUT_LIMIT) return;
  if (!input_batch.len) input_batch_since = now_ms();
  queue_push(&input_batch, bytes, n);
}

static void flush_input_batch(void) {
  if (!input_batch.len) return;
  frame('I', input_batch.data + input_batch.head, input_batch.len);
  queue_clear(&input_batch);
}

static void copy_window_size(void) {
  struct winsize ws;
  if (ioctl(0, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0) ioctl(master, TIOCSWINSZ, &ws);
}

static void signal_agent(int sig) {
  if (agent > 0 && !child_exited) kill(agent, sig);
}

static uint32_t read_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void on_control(char type, const unsigned char *p, uint32_t n) {
  switch (type) {
    case 'T':
      queue_push(&injection, p, n);
      if (!last_unsafe) write_injection();
      break;
    case 'W':
      if (to_agent.len + n <= INPUT_LIMIT && !child_exited) write_or_queue(&to_agent, master, p, n);
      break;
    case 'K':
      if (n >= 4) signal_agent((int)read_u32(p));
      break;
    case 'R':
      nudge_until = 0;
      if (n >= 4) {
        struct winsize ws = {.ws_col = (unsigned short)(p[0] | p[1] << 8), .ws_row = (unsigned short)(p[2] | p[3] << 8)};
        if (ws.ws_col > 0 && ws.ws_row > 0) ioctl(master, TIOCSWINSZ, &ws);
      }
      break;
    case 'O':
      if (n >= 1 && (p[0] != 0) != tee_on) {
        tee_on = p[0] != 0;
        if (tee_on) {
          tee_lost = 0; /* whoever was missing bytes is gone; the tail starts the new copy */
          send_tail();
        }
      }
      break;
    default:
      break; /* unknown frames are skipped: an older relay under a newer ccc keeps working */
  }
}

/* Termios back as they were, and the modes a TUI may leave on switched off; only once. */
static void restore_terminal(int how) {
  if (terminal_restored) return;
  terminal_restored = 1;
  if (user_tty) tcsetattr(0, how, &saved_mode);
  if (!isatty(1)) return;
  if (alt_active && !alt_left) write_or_queue(&to_user, 1, (const unsigned char *)RULE_ALT_SCREEN_EXIT, sizeof RULE_ALT_SCREEN_EXIT - 1);
  write_or_queue(&to_user, 1, (const unsigned char *)RULE_MODE_RESETS, sizeof RULE_MODE_RESETS - 1);
}

/* --- job control: see the header --- */

/* Whether a stop of the job can take: a shell with job control made ccc's process group (it is not
   the session's own) and gave it the terminal. Elsewhere the kernel discards the SIGTSTP. */
static int job_control_here(void) {
  return user_tty && !no_job_control && own_pgrp != getsid(0) && tcgetpgrp(0) == own_pgrp;
}

/* The stopped agent's last output (claude's "suspended" line) reaches the terminal before the shell
   gets it: read until the pty has been quiet for drain_quiet_ms (the pty hands bytes over late). */
static void drain_agent_output(void) {
  unsigned char buf[READ_SIZE];
  size_t total = 0;
  flush_blocking(&to_user, 1, 1000);
  while (!master_eof && total < SUSPEND_DRAIN_LIMIT) {
    struct pollfd p = {.fd = master, .events = POLLIN};
    int ready = poll(&p, 1, (int)drain_quiet_ms);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    ssize_t n = read(master, buf, sizeof buf);
    if (n > 0) {
      on_output(buf, (size_t)n);
      total += (size_t)n;
      flush_blocking(&to_user, 1, 1000);
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
      master_eof = 1;
    }
  }
}

/* The terminal as the shell gave it to ccc, for the shell to use while the job is stopped. */
static void give_terminal_back(void) {
  static const unsigned char cancel = RULE_CAN;
  if (last_unsafe) write_or_queue(&to_user, 1, &cancel, 1); /* the agent stopped inside a sequence */
  flush_blocking(&to_user, 1, 1000);
  tcsetattr(0, TCSADRAIN, &saved_mode);
  if (!isatty(1)) return;
  if (alt_active) {
    write_or_queue(&to_user, 1, (const unsigned char *)RULE_ALT_SCREEN_EXIT, sizeof RULE_ALT_SCREEN_EXIT - 1);
    alt_left = 1;
  }
  write_or_queue(&to_user, 1, (const unsigned char *)RULE_MODE_RESETS, sizeof RULE_MODE_RESETS - 1);
  flush_blocking(&to_user, 1, 1000);
}

/* One column narrower for redraw_nudge_ms, then the real size: the agent redraws its screen. */
static void nudge_size(void) {
  struct winsize ws;
  if (!nudge_until) {
    if (ioctl(master, TIOCGWINSZ, &ws) < 0 || ws.ws_col < 2) return;
    nudge_real = ws;
  }
  ws = nudge_real;
  ws.ws_col--;
  ioctl(master, TIOCSWINSZ, &ws);
  nudge_until = now_ms() + redraw_nudge_ms;
}

static void continue_agent(int redraw) {
  if (agent > 0 && !child_exited) {
    kill(-agent, SIGCONT);
    kill(child, SIGCONT); /* the leader, stopped when the agent stopped itself */
  }
  agent_stopped = 0;
  if (redraw) nudge_size();
}

/* The job continued, or could not stop. In the foreground: the terminal raw again, the agent
   continued and redrawn. In the background (`bg`, a `kill -CONT` without `fg`): the terminal is not
   ours to change, so the job stops again (the agent stays frozen). */
static void after_continue(void) {
  if (in_background()) {
    stop_wanted = STOP_BACKGROUND;
    return;
  }
  if (user_tty) tcsetattr(0, TCSADRAIN, &raw_mode);
  if (alt_left) {
    write_or_queue(&to_user, 1, (const unsigned char *)RULE_ALT_SCREEN_REENTER, sizeof RULE_ALT_SCREEN_REENTER - 1);
    alt_left = 0;
  }
  continue_agent(1);
}

/* Stops the job ccc leads, this relay with it; returns once it continues (or could not stop). */
static void stop_job(int why) {
  stop_wanted = STOP_NONE;
  if (child_exited || ccc_gone_at || agent <= 0) return;
  if (why != STOP_BACKGROUND) {
    if (!job_control_here()) {
      /* Nobody could bring the job back: an agent that stopped itself goes on at once. */
      if (why == STOP_AGENT) continue_agent(1);
      return;
    }
    drain_agent_output();
    give_terminal_back();
  }
  /* Frozen with the job. SIGSTOP, which the leader does not report: only the agent's own stops are. */
  if (!agent_stopped) kill(-agent, SIGSTOP);
  int sig = why == STOP_BACKGROUND ? SIGTTOU : SIGTSTP;
  struct sigaction dfl, was;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sig_atomic_t before = conts_received;
  sigaction(sig, &dfl, &was);
  kill(0, sig); /* ccc's process group, this relay in it: the shell shows the job stopped */
  sigaction(sig, &was, NULL);
  /* No SIGCONT came: the stop was discarded (an orphaned process group). Stop trying. */
  if (conts_received == before) no_job_control = 1;
  conts_handled = conts_received;
  after_continue();
}

/* The agent's whole group, continued too: a stopped process acts on nothing but SIGKILL. */
static void signal_agent_group(int sig) {
  if (agent <= 0 || child_exited) return;
  kill(-agent, sig);
  kill(-agent, SIGCONT);
  kill(child, SIGCONT);
}

/* The terminal has been given back: the front that holds the user's shell may let it go. */
static void release_hold(void) {
  if (hold_fd < 0) return;
  close(hold_fd);
  hold_fd = -1;
}

/* ccc died (or its front did: the shell has the terminal again): nobody supervises the session
   any more, and the shell is about to read from the terminal. Give it back now (TCSANOW: nothing
   of ours is worth waiting for), then end the session the way a closed terminal ends it. A front
   that died leaves ccc alive: it still gets the agent's exit. */
static void give_up(int ccc_gone) {
  if (ccc_gone_at) return;
  if (ccc_gone) {
    chan_open = 0;
    queue_clear(&to_ccc);
  }
  ccc_gone_at = now_ms();
  queue_clear(&injection);
  stdin_open = 0;
  int cut = to_user.len > 0 || last_unsafe; /* the terminal may be inside a sequence of the agent's */
  queue_clear(&to_user);
  static const unsigned char cancel = RULE_CAN; /* ends any sequence in progress */
  if (cut && isatty(1)) write_or_queue(&to_user, 1, &cancel, 1);
  restore_terminal(TCSANOW);
  flush_blocking(&to_user, 1, 100);
  release_hold();
  signal_agent_group(SIGHUP);
}

static void on_ccc_gone(void) {
  if (ccc_gone_at) {
    chan_open = 0;
    queue_clear(&to_ccc);
    return;
  }
  give_up(1);
}

static void read_control(void) {
  unsigned char buf[READ_SIZE];
  ssize_t n = read(CHAN, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    on_ccc_gone();
    return;
  }
  queue_push(&from_ccc, buf, (size_t)n);
  while (from_ccc.len >= 5) {
    const unsigned char *f = from_ccc.data + from_ccc.head;
    uint32_t len = read_u32(f + 1);
    if (from_ccc.len < 5 + (size_t)len) break;
    on_control((char)f[0], f + 5, len);
    queue_drop(&from_ccc, 5 + (size_t)len);
  }
}

static void on_signal(int sig) {
  int saved = errno;
  if (sig == SIGCONT) conts_received++;
  unsigned char s = (unsigned char)sig;
  if (write(signal_pipe[1], &s, 1) < 0) { /* the pipe is full: a signal of this kind is already pending */ }
  errno = saved;
}

static void handle_signals(void) {
  unsigned char sigs[64];
  ssize_t n;
  while ((n = read(signal_pipe[0], sigs, sizeof sigs)) > 0) {
    for (ssize_t i = 0; i < n; i++) {
      int sig = sigs[i];
      if (sig == SIGCHLD) {
        int status;
        while (!child_exited && waitpid(child, &status, WNOHANG | WUNTRACED | WCONTINUED) == child) {
          if (WIFSTOPPED(status)) {
            agent_stopped = 1; /* the leader stops only when the agent stopped itself */
          } else if (!WIFCONTINUED(status)) {
            child_status = status;
            child_exited = 1;
            exited_at = drain_from = now_ms();
          }
        }
      } else if (sig == SIGWINCH) {
        nudge_until = 0;
        copy_window_size();
      } else if (sig == SIGCONT) {
        /* `fg` after the kernel stopped us (SIGTTIN), or a SIGCONT from outside; ours are handled in stop_job */
        if (conts_handled != conts_received) {
          conts_handled = conts_received;
          after_continue();
        }
      } else if (sig == SIGTSTP) {
        stop_wanted = STOP_ASKED;
      } else {
        signal_agent(sig);
      }
    }
  }
}

static void set_flags(int fd, int fl, int fdfl) {
  if (fl) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | fl);
  if (fdfl) fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | fdfl);
}

static const int HANDLED[] = {SIGCHLD, SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGCONT, SIGTSTP};

static void install_signals(void) {
  if (pipe(signal_pipe) < 0) die("pipe");
  set_flags(signal_pipe[0], O_NONBLOCK, FD_CLOEXEC);
  set_flags(signal_pipe[1], O_NONBLOCK, FD_CLOEXEC);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof HANDLED / sizeof HANDLED[0]; i++) sigaction(HANDLED[i], &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGTTOU, SIG_IGN);
}

/* The forked copy that leads the pty's session: runs the agent as its one job (own process group,
   the terminal's foreground), reports the agent's pid and exec error on `report`, stops itself when
   the agent stops itself (not on SIGSTOP: that is a freeze from outside), continues it when
   continued, and ends as the agent ended. Never returns. */
static void lead_session(char **argv, int slave, int report) {
  for (size_t i = 0; i < sizeof HANDLED / sizeof HANDLED[0]; i++) signal(HANDLED[i], SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  setsid();
  ioctl(slave, TIOCSCTTY, 0);
  int exec_errors[2];
  int32_t msg[2] = {-1, 0};
  if (pipe(exec_errors) < 0) {
    msg[1] = errno;
    if (write(report, msg, sizeof msg) < 0) { /* the relay sees the leader's exit either way */ }
    _exit(127);
  }
  set_flags(exec_errors[1], 0, FD_CLOEXEC);
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    tcsetpgrp(slave, getpid()); /* SIGTTOU is still ignored, so this works from the background */
    signal(SIGTTOU, SIG_DFL);
    dup2(slave, 0);
    dup2(slave, 1);
    dup2(slave, 2);
    if (slave > 2) close(slave);
    close(exec_errors[0]);
    close(report);
    execvp(argv[0], argv);
    int err = errno;
    if (write(exec_errors[1], &err, sizeof err) < 0) { /* the leader sees 127 either way */ }
    _exit(127);
  }
  if (pid < 0) msg[1] = errno;
  else {
    setpgid(pid, pid);
    tcsetpgrp(slave, pid);
    msg[0] = pid;
  }
  signal(SIGTTOU, SIG_DFL);
  close(exec_errors[1]);
  close(slave); /* the agent's end of the pty is the agent's alone: its close is the relay's end of file */
  int err = 0;
  ssize_t got;
  while (pid > 0 && (got = read(exec_errors[0], &err, sizeof err)) < 0 && errno == EINTR) {}
  if (pid > 0 && got == sizeof err) msg[1] = err;
  close(exec_errors[0]);
  if (write(report, msg, sizeof msg) < 0) { /* the relay sees the leader's exit either way */ }
  close(report);
  if (pid < 0) _exit(127);
  for (;;) {
    int status;
    if (waitpid(pid, &status, WUNTRACED) < 0) {
      if (errno == EINTR) continue;
      _exit(125);
    }
    if (WIFSTOPPED(status)) {
      if (WSTOPSIG(status) == SIGSTOP) continue;
      raise(SIGSTOP); /* SIGSTOP works in this orphaned group; the relay sees it and stops the job */
      kill(-pid, SIGCONT);
    } else if (WIFSIGNALED(status)) {
      /* End by the same signal, so the relay reports what ended the agent; no core of our own. */
      struct rlimit none = {0, 0};
      setrlimit(RLIMIT_CORE, &none);
      signal(WTERMSIG(status), SIG_DFL);
      sigset_t all;
      sigfillset(&all);
      sigprocmask(SIG_UNBLOCK, &all, NULL);
      raise(WTERMSIG(status));
      _exit(128 + WTERMSIG(status));
    } else {
      _exit(WEXITSTATUS(status));
    }
  }
}

static void spawn_agent(char **argv, struct termios *mode, struct winsize *ws) {
  master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) die("posix_openpt");
  char *name = ptsname(master);
  if (!name) die("ptsname");
  int slave = open(name, O_RDWR | O_NOCTTY);
  if (slave < 0) die("open pty");
  if (mode) tcsetattr(slave, TCSANOW, mode);
  ioctl(slave, TIOCSWINSZ, ws);
  int report[2];
  if (pipe(report) < 0) die("pipe");
  set_flags(report[0], 0, FD_CLOEXEC);
  child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    close(master);
    close(report[0]);
    lead_session(argv, slave, report[1]);
  }
  close(slave);
  close(report[1]);
  int32_t msg[2] = {-1, 0};
  size_t got = 0;
  while (got < sizeof msg) {
    ssize_t n = read(report[0], (char *)msg + got, sizeof msg - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(report[0]);
  set_flags(master, O_NONBLOCK, FD_CLOEXEC);
  if (got == sizeof msg && msg[0] > 0 && msg[1] == 0) {
    agent = msg[0];
    frame_i32s('P', agent, 0, 1);
  } else {
    char text[512];
    int len = snprintf(text, sizeof text, "cannot run %s: %s", argv[0], strerror(got == sizeof msg && msg[1] ? msg[1] : EIO));
    frame('E', text, (size_t)len);
  }
}

/* Blocks (bounded) until the queue is written: used only at the end. */
static void flush_blocking(queue_t *q, int fd, int timeout_ms) {
  long long until = now_ms() + timeout_ms;
  while (q->len && now_ms() < until) {
    if (queue_flush(q, fd) < 0) return;
    if (q->len) {
      struct pollfd p = {.fd = fd, .events = POLLOUT};
      poll(&p, 1, (int)(until - now_ms()));
    }
  }
}

static int timeout_until(long long at, long long now, int current) {
  long long left = at - now;
  if (left < 0) left = 0;
  return current < 0 || left < current ? (int)left : current;
}

int main(int argc, char **argv) {
  int cols = 80, rows = 24, i = 1;
  for (; i < argc; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else if (strcmp(argv[i], "--tee-output") == 0) {
      tee_on = 1;
    } else if (strcmp(argv[i], "--tail-bytes") == 0 && i + 1 < argc) {
      long bytes = atol(argv[++i]);
      tail_cap = bytes > 0 && bytes <= (64l << 20) ? (size_t)bytes : 0;
      if (tail_cap && !(tail_ring = malloc(tail_cap))) die("out of memory");
    } else if (strcmp(argv[i], "--cols") == 0 && i + 1 < argc) {
      cols = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc) {
      rows = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--inject-idle-ms") == 0 && i + 1 < argc) {
      inject_idle_ms = atoll(argv[++i]);
    } else if (strcmp(argv[i], "--drain-quiet-ms") == 0 && i + 1 < argc) {
      drain_quiet_ms = atoll(argv[++i]);
    } else if (strcmp(argv[i], "--drain-max-ms") == 0 && i + 1 < argc) {
      drain_max_ms = atoll(argv[++i]);
    } else if (strcmp(argv[i], "--redraw-nudge-ms") == 0 && i + 1 < argc) {
      redraw_nudge_ms = atoll(argv[++i]);
    } else if (strcmp(argv[i], "--hold-fd") == 0 && i + 1 < argc) {
      hold_fd = atoi(argv[++i]);
    } else {
      fprintf(stderr, "ccc-relay: unknown option %s\n", argv[i]);
      return 125;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "usage: ccc-relay [--tee-output] [--tail-bytes N] [--cols N --rows N] [--inject-idle-ms N] [--drain-quiet-ms N] [--drain-max-ms N] [--redraw-nudge-ms N] [--hold-fd N] -- command [args...]\n");
    return 125;
  }
  if (fcntl(CHAN, F_GETFD) < 0) chan_open = 0;
  else set_flags(CHAN, O_NONBLOCK, FD_CLOEXEC);
  if (hold_fd <= CHAN || fcntl(hold_fd, F_GETFD) < 0) hold_fd = -1;
  else set_flags(hold_fd, O_NONBLOCK, FD_CLOEXEC);

  install_signals();
  own_pgrp = getpgrp();
  struct winsize ws = {.ws_col = (unsigned short)cols, .ws_row = (unsigned short)rows};
  user_tty = isatty(0) && tcgetattr(0, &saved_mode) == 0;
  if (user_tty) {
    struct winsize real;
    if (ioctl(0, TIOCGWINSZ, &real) == 0 && real.ws_col > 0 && real.ws_row > 0) ws = real;
  }
  spawn_agent(argv + i, user_tty ? &saved_mode : NULL, &ws);
  if (user_tty) {
    raw_mode = saved_mode;
    cfmakeraw(&raw_mode);
    tcsetattr(0, TCSADRAIN, &raw_mode);
  }

  unsigned char buf[READ_SIZE];
  last_output_at = now_ms();
  for (;;) {
    long long now = now_ms();
    /* While the user's terminal is behind, the agent's output waits unread: that is not quiet, and
       the time to drain it counts from when the terminal caught up. */
    if (to_user.len) last_output_at = drain_from = now;
    if (child_exited) {
      int quiet = now - last_output_at >= drain_quiet_ms;
      if ((master_eof || quiet || now - drain_from >= drain_max_ms) && !to_user.len) break;
      if (now - exited_at >= 5 * drain_max_ms) break; /* the user's terminal takes nothing more */
    }
    struct pollfd p[6];
    int timeout = -1;
    p[0] = (struct pollfd){.fd = signal_pipe[0], .events = POLLIN};
    short master_events = (short)((!to_user.len && !master_eof ? POLLIN : 0) | (to_agent.len && !master_eof ? POLLOUT : 0));
    p[1] = (struct pollfd){.fd = master_events ? master : -1, .events = master_events};
    p[2] = (struct pollfd){.fd = stdin_open && to_agent.len < INPUT_LIMIT ? 0 : -1, .events = POLLIN};
    p[3] = (struct pollfd){.fd = to_user.len ? 1 : -1, .events = POLLOUT};
    p[4] = (struct pollfd){.fd = chan_open ? CHAN : -1, .events = (short)(POLLIN | (to_ccc.len ? POLLOUT : 0))};
    p[5] = (struct pollfd){.fd = hold_fd, .events = POLLIN}; /* the front never writes: readable is its end */
    if (injection.len) timeout = timeout_until(last_output_at + inject_idle_ms, now, timeout);
    if (input_batch.len) timeout = timeout_until(input_batch_since + INPUT_FLUSH_MS, now, timeout);
    if (child_exited) timeout = timeout_until(last_output_at + drain_quiet_ms, now, timeout);
    if (ccc_gone_at && !child_exited) timeout = timeout_until(ccc_gone_at + KILL_GRACE_MS, now, timeout);
    if (nudge_until) timeout = timeout_until(nudge_until, now, timeout);
    if (poll(p, 6, timeout) < 0) {
      if (errno == EINTR) continue;
      die("poll");
    }
    if (p[0].revents) handle_signals();
    if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (master_events & POLLIN) {
        ssize_t n = read(master, buf, sizeof buf);
        if (n > 0) on_output(buf, (size_t)n);
        else if (n == 0 || (errno != EINTR && errno != EAGAIN)) master_eof = 1;
      } else if (p[1].revents & (POLLHUP | POLLERR)) {
        queue_clear(&to_agent); /* nobody left to type to */
      }
    }
    if (p[1].revents & POLLOUT && queue_flush(&to_agent, master) < 0) queue_clear(&to_agent);
    if (p[2].revents & (POLLIN | POLLHUP | POLLERR)) {
      if (in_background()) {
        stop_wanted = STOP_BACKGROUND; /* the keys are the shell's */
      } else {
        /* Only what the agent's queue has room for: the rest waits in the terminal, none is dropped. */
        size_t room = INPUT_LIMIT - to_agent.len;
        ssize_t n = read(0, buf, room < sizeof buf ? room : sizeof buf);
        if (n > 0) on_input(buf, (size_t)n);
        else if (n == 0 || (errno != EINTR && errno != EAGAIN)) stdin_open = 0;
      }
    }
    if (p[3].revents && !stop_wanted && queue_flush(&to_user, 1) < 0) stdin_open = 0; /* the user's terminal is gone */
    if (p[4].revents & (POLLIN | POLLHUP | POLLERR)) read_control();
    if (chan_open && p[4].revents & POLLOUT && queue_flush(&to_ccc, CHAN) < 0) on_ccc_gone();
    if (hold_fd >= 0 && p[5].revents) give_up(0);
    if (tee_lost && to_ccc.len + 13 <= TEE_LIMIT) report_gap();
    if (agent_stopped && !stop_wanted) stop_wanted = STOP_AGENT;
    if (stop_wanted) stop_job(stop_wanted);
    now = now_ms();
    if (nudge_until && now >= nudge_until) {
      nudge_until = 0;
      ioctl(master, TIOCSWINSZ, &nudge_real);
    }
    if (ccc_gone_at && !child_exited && now - ccc_gone_at >= KILL_GRACE_MS) signal_agent_group(SIGKILL);
    if (injection.len && now - last_output_at >= inject_idle_ms && !to_user.len) write_injection();
    if (input_batch.len && (input_batch.len >= INPUT_BATCH || now - input_batch_since >= INPUT_FLUSH_MS)) flush_input_batch();
  }

  flush_blocking(&to_user, 1, 2000);
  restore_terminal(TCSADRAIN);
  flush_blocking(&to_user, 1, 1000);
  release_hold();
  int code = WIFSIGNALED(child_status) ? 128 + WTERMSIG(child_status) : WEXITSTATUS(child_status);
  flush_input_batch();
  report_gap();
  frame_i32s('X', WIFSIGNALED(child_status) ? 0 : code, WIFSIGNALED(child_status) ? WTERMSIG(child_status) : 0, 2);
  /* The exit report must reach ccc: it waits behind the output copy, which a busy ccc (a review, a
     collection) may not read for seconds. The terminal is the user's already; a dead ccc ends this
     at once (EPIPE), one that reads nothing for EXIT_REPORT_MS does not hold the relay forever. */
  long long report_until = now_ms() + EXIT_REPORT_MS;
  if (chan_open) flush_blocking(&to_ccc, CHAN, EXIT_REPORT_MS);
  if (chan_open && !to_ccc.len) await_ccc_close(report_until);
  return code;
}

/* Written is not read: ccc reads the report in its next turn, and a frame ccc writes before that
   (the session it opens when the agent exits) to a relay already gone fails with EPIPE, and Node
   closes a socket whose write failed, the unread report with it. So the relay ends its side and
   stays until ccc has read to the end and closed its own, within the report's bound. A pipe (no
   socket for the channel) cannot be half closed: nothing to wait for. */
static void await_ccc_close(long long until) {
  if (shutdown(CHAN, SHUT_WR) < 0) return;
  unsigned char sink[READ_SIZE];
  for (;;) {
    long long left = until - now_ms();
    if (left <= 0) return;
    struct pollfd p = {.fd = CHAN, .events = POLLIN};
    if (poll(&p, 1, (int)left) < 0 && errno != EINTR) return;
    ssize_t n = read(CHAN, sink, sizeof sink);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) return;
  }
}
