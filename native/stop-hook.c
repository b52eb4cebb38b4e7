/*
 * ccc-stop-hook: the Stop hook ccc puts into the claude it launches, as a small native client.
 * Claude Code starts it at every stop and waits for it; the Node hook (`ccc supervisor-hook
 * --proxy`) does the same work after Node's start-up and module loading. It hands the stop to the
 * running ccc over the private stop channel (src/stop/stop-channel.ts) and prints ccc's answer.
 *
 * Usage: ccc-stop-hook --proxy   (the hook JSON on stdin; CCC_HOOK_SOCKET and CCC_HOOK_TOKEN set
 * by ccc). Without arguments it prints its usage and exits 125 (how ccc checks that it runs).
 *
 * Request, one line: {"token":"…","reply":"raw","input":"<stdin as a JSON string>"}
 * Answer, up to the end of the connection: '+' and the text to print (empty: allow the stop), or
 * '-' and why ccc refused the request. A line starting with '{' is ccc's refusal of a request it
 * could not read.
 *
 * As the Node hook: it never blocks on its own. Every failure (no channel, ccc gone, a refusal)
 * is one line on stderr and an allowed stop, exit 0. The reviewer's own stop
 * (CCC_SUPERVISOR_HOOK=1) is allowed at once. Input larger than 64 MiB is not sent.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_BYTES (64u * 1024u * 1024u)

typedef struct {
  char *data;
  size_t len;
  size_t cap;
} buffer;

static void out_of_memory(void) {
  fputs("ccc supervisor-hook: out of memory; stop allowed\n", stderr);
  exit(0);
}

static void append(buffer *b, const char *bytes, size_t n) {
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) out_of_memory();
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, bytes, n);
  b->len += n;
}

static void append_text(buffer *b, const char *text) { append(b, text, strlen(text)); }

/* A JSON string of the bytes: quote, backslash and control characters escaped, the rest as is. */
static void append_json_string(buffer *b, const char *bytes, size_t n) {
  static const char hex[] = "0123456789abcdef";
  append_text(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)bytes[i];
    if (c == '"' || c == '\\') {
      char escaped[2] = {'\\', (char)c};
      append(b, escaped, 2);
    } else if (c < 0x20) {
      char escaped[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
      append(b, escaped, 6);
    } else {
      append(b, (const char *)&c, 1);
    }
  }
  append_text(b, "\"");
}

/* Reads fd to its end into b; 1 when it went past MAX_BYTES, -1 on a read error. */
static int read_all(int fd, buffer *b) {
  char chunk[65536];
  for (;;) {
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (b->len + (size_t)n > MAX_BYTES) return 1;
    append(b, chunk, (size_t)n);
  }
}

static int write_all(int fd, const char *bytes, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, bytes, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    bytes += w;
    n -= (size_t)w;
  }
  return 0;
}

static int unreachable(const char *why, const char *detail) {
  fprintf(stderr, "ccc supervisor-hook: cannot reach the supervising ccc (%s%s%s); stop allowed\n", why, detail ? ": " : "", detail ? detail : "");
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2 || strcmp(argv[1], "--proxy") != 0) {
    fputs("usage: ccc-stop-hook --proxy\n  the Stop hook ccc gives the claude it launches: reads the hook JSON on stdin, asks the running ccc\n", stderr);
    return 125;
  }
  signal(SIGPIPE, SIG_IGN);
  const char *own = getenv("CCC_SUPERVISOR_HOOK");
  if (own && strcmp(own, "1") == 0) return 0;

  buffer input = {0};
  int read_status = read_all(0, &input);
  if (read_status == 1) {
    fprintf(stderr, "ccc supervisor-hook: hook input is larger than %u bytes; stop allowed\n", MAX_BYTES);
    return 0;
  }
  if (read_status < 0) {
    fprintf(stderr, "ccc supervisor-hook: cannot read the hook input (%s); stop allowed\n", strerror(errno));
    return 0;
  }

  const char *socket_path = getenv("CCC_HOOK_SOCKET");
  const char *token = getenv("CCC_HOOK_TOKEN");
  if (!socket_path || !*socket_path || !token || !*token) {
    fputs("ccc supervisor-hook --proxy: not started by a supervising ccc (no stop channel); stop allowed\n", stderr);
    return 0;
  }

  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (strlen(socket_path) >= sizeof address.sun_path) return unreachable("the socket path is too long", socket_path);
  memcpy(address.sun_path, socket_path, strlen(socket_path));
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd < 0) return unreachable("socket", strerror(errno));
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return unreachable("connect", strerror(errno));

  buffer request = {0};
  append_text(&request, "{\"token\":");
  append_json_string(&request, token, strlen(token));
  append_text(&request, ",\"reply\":\"raw\",\"input\":");
  append_json_string(&request, input.data ? input.data : "", input.len);
  append_text(&request, "}\n");
  if (write_all(fd, request.data, request.len) != 0) return unreachable("write", strerror(errno));

  buffer answer = {0};
  int answer_status = read_all(fd, &answer);
  if (answer_status == 1) return unreachable("the answer is too large", NULL);
  if (answer_status < 0) return unreachable("read", strerror(errno));
  if (answer.len == 0) return unreachable("connection closed before an answer", NULL);
  append(&answer, "", 1); /* a terminating NUL for the messages below */
  if (answer.data[0] == '+') {
    size_t n = answer.len - 2;
    if (n > 0 && (write_all(1, answer.data + 1, n) != 0 || write_all(1, "\n", 1) != 0)) {
      fprintf(stderr, "ccc supervisor-hook: cannot write the decision (%s)\n", strerror(errno));
    }
    return 0;
  }
  if (answer.data[0] == '-') return unreachable(answer.data + 1, NULL);
  answer.data[strcspn(answer.data, "\n")] = '\0';
  return unreachable("ccc refused the request", answer.data);
}
