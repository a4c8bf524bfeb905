/* What a frame of SQLite's write-ahead log costs to write as SQLite writes it (its 24-byte
   header, then its page: two pwrite calls) and as walframes.c writes it (one call), on the
   file system of the folder given (the server's data folder by default is in the working
   directory; /tmp is where the benchmarks put theirs).

   cc -O2 -o wal_frames scripts/bench/wal_frames.c && ./wal_frames /tmp
   Prints µs a frame for each way, over 200 passes of a 1,000-frame log (4 KB pages). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + time.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  char path[4096];
  snprintf(path, sizeof path, "%s/wal_frames.test", argc > 1 ? argv[1] : ".");
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    perror(path);
    return 1;
  }
  enum { header = 24, page = 4096, frames = 1000, passes = 200 };
  static char frame[header + page];
  memset(frame, 7, sizeof frame);
  for (int joined = 0; joined < 2; joined++) {
    double started = now();
    for (int pass = 0; pass < passes; pass++) {
      for (int index = 0; index < frames; index++) {
        off_t offset = 32 + (off_t)index * (header + page);
        if (joined) {
          if (pwrite(fd, frame, header + page, offset) != header + page) return 1;
        } else if (pwrite(fd, frame, header, offset) != header ||
                   pwrite(fd, frame + header, page, offset + header) != page) {
          return 1;
        }
      }
    }
    printf("%s: %.2f µs a frame\n", joined ? "one pwrite (walframes.c)" : "two pwrites (SQLite)",
           (now() - started) * 1e6 / (frames * passes));
  }
  close(fd);
  unlink(path);
  return 0;
}
