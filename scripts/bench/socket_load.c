/* The move loop of socket_moves.py, as a lean load client.

   The Python client costs the machine about 80 us of CPU a move, on the same two cores as the
   server, so the server never runs at its ceiling in that loop, while GET /ping is measured
   at the ceiling with wrk. This client does the same work as socket_moves.py's `player` (a
   Number game, 0...9999 in 20 attempts, started by POST and played to its end by halving, each
   move over the player's own WebSocket) with one thread a player and blocking sockets, for a
   few microseconds a move: the server is then loaded as wrk loads it.

   With `post` last, each move is sent as moves.lua sends it instead (`POST
   /api/games/ID/actions` over the player's keep-alive connection, with the same headers):
   the move loop by POST without the Lua callbacks that wrk runs for every request and answer
   of moves.lua (about twice wrk's CPU a ping), so that a move by POST is measured under the
   same load client as a ping.

   cc -O2 -pthread -o socket_load socket_load.c
   socket_load HOST PORT SERVER_PID WARMUP_S SECONDS [post] < cookies   (one cookie a line, a
   player each) prints one JSON object: moves, games, errors, elapsed seconds, the server's CPU
   seconds and this process's, counted over SECONDS after WARMUP_S. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *host;
static int port;
static atomic_long moves, games, errors;
static atomic_int stop;
/* Moves by POST (`post`), not over the socket. */
static int by_post;

/* A connected TCP socket without Nagle's delay, or -1. */
static int dial(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
  inet_pton(AF_INET, host, &address.sin_addr);
  if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return -1;
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

static int send_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t sent = send(fd, data, length, 0);
    if (sent <= 0) return -1;
    data += sent;
    length -= (size_t)sent;
  }
  return 0;
}

static int receive_exactly(int fd, char *into, size_t length) {
  while (length > 0) {
    ssize_t got = recv(fd, into, length, 0);
    if (got <= 0) return -1;
    into += got;
    length -= (size_t)got;
  }
  return 0;
}

/* Reads an HTTP response's head into `head` (NUL-terminated); its status, or -1. */
static int read_head(int fd, char *head, size_t size) {
  size_t used = 0;
  while (used + 1 < size) {
    if (recv(fd, head + used, 1, 0) != 1) return -1;
    used++;
    if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0) {
      head[used] = 0;
      return atoi(head + 9);
    }
  }
  return -1;
}

/* The integer after `"key":` in `json` (from `from` on), or `fallback`. */
static long number_after(const char *json, const char *key, long fallback) {
  const char *at = strstr(json, key);
  return at ? strtol(at + strlen(key), NULL, 10) : fallback;
}

/* A keep-alive HTTP connection and what has been received on it and not yet read. */
struct connection {
  int fd;
  size_t start, end;
  char buffer[65536];
};

/* Receives more into `c`'s buffer, moving what is unread to its start first; 0, or -1. */
static int receive_more(struct connection *c) {
  if (c->start > 0) {
    memmove(c->buffer, c->buffer + c->start, c->end - c->start);
    c->end -= c->start;
    c->start = 0;
  }
  if (c->end == sizeof c->buffer) return -1;
  ssize_t got = recv(c->fd, c->buffer + c->end, sizeof c->buffer - c->end, 0);
  if (got <= 0) return -1;
  c->end += (size_t)got;
  return 0;
}

/* Reads one response from `c` (received in as few calls as the kernel allows): its status,
   its body into `body` (NUL-terminated); or -1. */
static int read_response(struct connection *c, char *body, size_t size) {
  char *head_end;
  while (!(head_end = memmem(c->buffer + c->start, c->end - c->start, "\r\n\r\n", 4)))
    if (receive_more(c) != 0) return -1;
  size_t head_length = (size_t)(head_end + 4 - (c->buffer + c->start));
  char head[4096];
  if (head_length >= sizeof head) return -1;
  memcpy(head, c->buffer + c->start, head_length);
  head[head_length] = 0;
  const char *field = strcasestr(head, "content-length:");
  long length = field ? strtol(field + 15, NULL, 10) : -1;
  if (length < 0 || (size_t)length >= size) return -1;
  while (c->end - c->start < head_length + (size_t)length)
    if (receive_more(c) != 0) return -1;
  memcpy(body, c->buffer + c->start + head_length, (size_t)length);
  body[length] = 0;
  c->start += head_length + (size_t)length;
  return atoi(head + 9);
}

/* POSTs `body` to `path` with the player's cookie, as moves.lua does; the answer's status
   (its body in `answer`), or -1. */
static int post(struct connection *c, const char *cookie, const char *path, const char *body,
                char *answer, size_t size) {
  char request[2048];
  int length = snprintf(request, sizeof request,
                        "POST %s HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n"
                        "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                        path, host, cookie, strlen(body), body);
  if (length < 0 || (size_t)length >= sizeof request) return -1;
  if (send_all(c->fd, request, (size_t)length) != 0) return -1;
  return read_response(c, answer, size);
}

/* A new Number game over the keep-alive connection `c`: its id into `id`; 0, or -1. */
static int new_game(struct connection *c, const char *cookie, char *id, size_t size) {
  char answer[8192];
  int status = post(c, cookie, "/api/games",
                    "{\"game\":\"number\",\"settings\":{\"low\":0,\"high\":9999,"
                    "\"attempts\":20}}",
                    answer, sizeof answer);
  const char *start = strstr(answer, "\"id\":\"");
  if (status != 201 || !start) return -1;
  start += 6;
  const char *end = strchr(start, '"');
  if (!end || (size_t)(end - start) >= size) return -1;
  memcpy(id, start, (size_t)(end - start));
  id[end - start] = 0;
  return 0;
}

/* Sends `text` as one masked text frame (a client's frames are masked; the key is zero). */
static int send_frame(int fd, const char *text, size_t length) {
  char frame[1024];
  size_t head = 0;
  frame[head++] = (char)0x81;
  if (length < 126) {
    frame[head++] = (char)(0x80 | length);
  } else {
    frame[head++] = (char)(0x80 | 126);
    frame[head++] = (char)(length >> 8);
    frame[head++] = (char)(length & 0xff);
  }
  memset(frame + head, 0, 4);
  head += 4;
  if (head + length > sizeof frame) return -1;
  memcpy(frame + head, text, length);
  return send_all(fd, frame, head + length);
}

/* Receives one unmasked text frame from the server into `into` (NUL-terminated); 0, or -1. */
static int receive_frame(int fd, char *into, size_t size) {
  unsigned char head[2];
  if (receive_exactly(fd, (char *)head, 2) != 0) return -1;
  size_t length = head[1] & 0x7f;
  if (length == 126) {
    unsigned char extended[2];
    if (receive_exactly(fd, (char *)extended, 2) != 0) return -1;
    length = ((size_t)extended[0] << 8) | extended[1];
  } else if (length == 127) {
    return -1;
  }
  if (length >= size || receive_exactly(fd, into, length) != 0) return -1;
  into[length] = 0;
  return (head[0] & 0x0f) == 1 ? 0 : -1;
}

/* One move of game `id` at `version`, guessing `number`: over the socket `ws` (`ref` counts
   the messages), or by POST over `http`. The reply's JSON is left in `answer`; 0 when the move
   was accepted, 1 when it was refused, -1 when the connection failed. */
static int move(struct connection *http, int ws, const char *cookie, const char *id,
                long *ref, long version, long number, char *answer, size_t size) {
  char text[512], path[256];
  if (by_post) {
    snprintf(path, sizeof path, "/api/games/%s/actions", id);
    snprintf(text, sizeof text,
             "{\"action\":{\"type\":\"guess\",\"number\":%ld},\"version\":%ld}", number,
             version);
    int status = post(http, cookie, path, text, answer, size);
    return status < 0 ? -1 : status == 200 ? 0 : 1;
  }
  int length = snprintf(text, sizeof text,
                        "{\"ref\":%ld,\"game\":\"%s\",\"version\":%ld,"
                        "\"action\":{\"type\":\"guess\",\"number\":%ld}}",
                        ++*ref, id, version, number);
  if (send_frame(ws, text, (size_t)length) != 0 || receive_frame(ws, answer, size) != 0)
    return -1;
  if (number_after(answer, "\"status\":", 0) != 200) return 1;
  const char *reply = strstr(answer, "\"reply\":");
  if (!reply) return 1;
  memmove(answer, reply, strlen(reply) + 1);
  return 0;
}

/* One player: new games by POST, each played to its end over the player's socket (or by
   POST). */
static void *player(void *argument) {
  const char *cookie = argument;
  struct connection *http = calloc(1, sizeof *http);
  if (!http) return NULL;
  http->fd = dial();
  int ws = by_post ? 0 : dial();
  char request[1024], head[2048], answer[16384], id[128];
  if (http->fd < 0 || ws < 0) {
    atomic_fetch_add(&errors, 1);
    return NULL;
  }
  if (!by_post) {
    int length = snprintf(request, sizeof request,
                          "GET /api/play/socket HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n"
                          "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n",
                          host, cookie);
    if (send_all(ws, request, (size_t)length) != 0 || read_head(ws, head, sizeof head) != 101) {
      atomic_fetch_add(&errors, 1);
      return NULL;
    }
  }
  long ref = 0;
  while (!atomic_load(&stop)) {
    if (new_game(http, cookie, id, sizeof id) != 0) {
      atomic_fetch_add(&errors, 1);
      return NULL;
    }
    atomic_fetch_add(&games, 1);
    long low = 0, high = 9999, version = 0;
    while (!atomic_load(&stop)) {
      int moved = move(http, ws, cookie, id, &ref, version, (low + high) / 2, answer,
                       sizeof answer);
      if (moved < 0) {
        atomic_fetch_add(&errors, 1);
        return NULL;
      }
      if (moved > 0) {
        atomic_fetch_add(&errors, 1);
        break;
      }
      atomic_fetch_add(&moves, 1);
      if (strstr(answer, "\"isOver\":true")) break;
      version = number_after(answer, "\"version\":", -1);
      low = number_after(answer, "\"knownLow\":", low);
      high = number_after(answer, "\"knownHigh\":", high);
    }
  }
  return NULL;
}

/* The CPU seconds process `pid` has used, from /proc (user and system). */
static double process_cpu(const char *pid) {
  char path[64], text[2048];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  FILE *file = fopen(path, "r");
  if (!file) return -1;
  size_t got = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[got] = 0;
  const char *field = strrchr(text, ')');
  unsigned long user = 0, system = 0;
  if (!field || sscanf(field + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                       &user, &system) != 2)
    return -1;
  return (double)(user + system) / (double)sysconf(_SC_CLK_TCK);
}

static double own_cpu(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + time.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 6 && !(argc == 7 && strcmp(argv[6], "post") == 0)) {
    fprintf(stderr, "usage: socket_load HOST PORT SERVER_PID WARMUP_S SECONDS [post] < cookies\n");
    return 2;
  }
  by_post = argc == 7;
  host = argv[1];
  port = atoi(argv[2]);
  char line[1024];
  int players = 0;
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!*line) continue;
    pthread_t thread;
    pthread_create(&thread, NULL, player, strdup(line));
    pthread_detach(thread);
    players++;
  }
  sleep((unsigned)atoi(argv[4]));
  long moves_before = atomic_load(&moves);
  double server_before = process_cpu(argv[3]), own_before = own_cpu(), started = now();
  sleep((unsigned)atoi(argv[5]));
  long moved = atomic_load(&moves) - moves_before;
  double server = process_cpu(argv[3]) - server_before, own = own_cpu() - own_before;
  double elapsed = now() - started;
  atomic_store(&stop, 1);
  printf("{\"players\": %d, \"moves\": %ld, \"games\": %ld, \"errors\": %ld, \"elapsed\": %f, "
         "\"server_cpu\": %f, \"load_cpu\": %f}\n",
         players, moved, atomic_load(&games), atomic_load(&errors), elapsed, server, own);
  return 0;
}
