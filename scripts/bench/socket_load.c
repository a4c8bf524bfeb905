/* The socket move loop of socket_moves.py, as a lean load client (`--client c`).

   The Python client costs the machine about 80 us of CPU a move, on the same two cores as the
   server, so the server never runs at its ceiling in that loop, while GET /ping is measured
   at the ceiling with wrk. This client does the same work as socket_moves.py's `player` (a
   Number game, 0...9999 in 20 attempts, started by POST and played to its end by halving, each
   move over the player's own WebSocket) with one thread a player and blocking sockets, for a
   few microseconds a move: the server is then loaded as wrk loads it.

   cc -O2 -pthread -o socket_load socket_load.c
   socket_load HOST PORT SERVER_PID WARMUP_S SECONDS < cookies   (one cookie a line, a player
   each) prints one JSON object: moves, games, errors, elapsed seconds, the server's CPU
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

/* A new Number game over the keep-alive connection `fd`: its id into `id`; 0, or -1. */
static int new_game(int fd, const char *cookie, char *id, size_t size) {
  static const char body[] = "{\"game\":\"number\",\"settings\":{\"low\":0,\"high\":9999,"
                             "\"attempts\":20}}";
  char request[1024], head[2048], answer[8192];
  int length = snprintf(request, sizeof request,
                        "POST /api/games HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n"
                        "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                        host, cookie, sizeof body - 1, body);
  if (send_all(fd, request, (size_t)length) != 0) return -1;
  int status = read_head(fd, head, sizeof head);
  const char *field = strcasestr(head, "content-length:");
  long bytes = field ? strtol(field + 15, NULL, 10) : -1;
  if (status < 0 || bytes < 0 || bytes >= (long)sizeof answer) return -1;
  if (receive_exactly(fd, answer, (size_t)bytes) != 0) return -1;
  answer[bytes] = 0;
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

/* One player: new games by POST, each played to its end over the player's socket. */
static void *player(void *argument) {
  const char *cookie = argument;
  int http = dial(), ws = dial();
  char request[1024], head[2048], answer[16384], id[128], move[512];
  int length = snprintf(request, sizeof request,
                        "GET /api/play/socket HTTP/1.1\r\nHost: %s\r\nCookie: %s\r\n"
                        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n",
                        host, cookie);
  if (http < 0 || ws < 0 || send_all(ws, request, (size_t)length) != 0 ||
      read_head(ws, head, sizeof head) != 101) {
    atomic_fetch_add(&errors, 1);
    return NULL;
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
      int size = snprintf(move, sizeof move,
                          "{\"ref\":%ld,\"game\":\"%s\",\"version\":%ld,"
                          "\"action\":{\"type\":\"guess\",\"number\":%ld}}",
                          ++ref, id, version, (low + high) / 2);
      if (send_frame(ws, move, (size_t)size) != 0 ||
          receive_frame(ws, answer, sizeof answer) != 0) {
        atomic_fetch_add(&errors, 1);
        return NULL;
      }
      if (number_after(answer, "\"status\":", 0) != 200) {
        atomic_fetch_add(&errors, 1);
        break;
      }
      atomic_fetch_add(&moves, 1);
      const char *reply = strstr(answer, "\"reply\":");
      if (!reply || strstr(reply, "\"isOver\":true")) break;
      version = number_after(reply, "\"version\":", -1);
      low = number_after(reply, "\"knownLow\":", low);
      high = number_after(reply, "\"knownHigh\":", high);
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
  if (argc != 6) {
    fprintf(stderr, "usage: socket_load HOST PORT SERVER_PID WARMUP_S SECONDS < cookies\n");
    return 2;
  }
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
