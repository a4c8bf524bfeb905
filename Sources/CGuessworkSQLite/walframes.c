#include "CGuessworkSQLite.h"
#include "sqlite_nio_sqlite3.h"

#include <pthread.h>
#include <string.h>

/* A VFS over SQLite's own ("unix") that writes each frame of the write-ahead log with one
   call instead of two. SQLite writes a frame as its 24-byte header, then its page at the
   offset just after: two pwrite calls, each a trip through the kernel's file code (the
   header's alone costs about 40% of the pair, measured in BENCHMARKS.md). Here a header
   written to a log is held back, and written with the page that follows it, in one call.

   Whatever else happens to the log first (any other call on it: a read, another write, a
   sync, its size, closing it) writes the held header before it. The one place SQLite writes
   a header without its page (rewriting the checksums of frames a transaction wrote twice)
   leaves the last header held when the commit returns, so the writer calls
   guesswork_sqlite3_wal_flush after every commit, before anyone is answered: a committed
   frame is then always whole in the file, as it is without this VFS. Only the log's file
   is wrapped; every other file is SQLite's own, unchanged. The unix VFS's file comes first in
   the wrapped one, so its code runs on the same memory, and its locks and shared memory are
   shared with the connections that do not use this VFS. */

#define FRAME_HEADER 24

typedef struct {
  const sqlite3_io_methods *real;  /* the unix VFS's methods for this file */
  int held;                         /* whether a header waits */
  sqlite3_int64 heldOffset;
  unsigned char header[FRAME_HEADER];
  unsigned char *frame; /* room for a header and a page, written in one call */
  int frameSize;
} Held;

static sqlite3_vfs vfs;
static sqlite3_vfs *unixVfs;
static sqlite3_io_methods walMethods;

/* The state kept after the unix VFS's own file. */
static Held *held(sqlite3_file *file) {
  return (Held *)((char *)file + ((unixVfs->szOsFile + 7) & ~7));
}

static int flush(sqlite3_file *file) {
  Held *h = held(file);
  if (!h->held) return SQLITE_OK;
  h->held = 0;
  return h->real->xWrite(file, h->header, FRAME_HEADER, h->heldOffset);
}

static int walWrite(sqlite3_file *file, const void *data, int amount, sqlite3_int64 offset) {
  Held *h = held(file);
  if (h->held && offset == h->heldOffset + FRAME_HEADER) {
    int size = FRAME_HEADER + amount;
    if (size > h->frameSize) {
      unsigned char *grown = sqlite_nio_sqlite3_realloc(h->frame, size);
      if (!grown) {
        int rc = flush(file);
        return rc != SQLITE_OK ? rc : h->real->xWrite(file, data, amount, offset);
      }
      h->frame = grown;
      h->frameSize = size;
    }
    memcpy(h->frame, h->header, FRAME_HEADER);
    memcpy(h->frame + FRAME_HEADER, data, (size_t)amount);
    h->held = 0;
    return h->real->xWrite(file, h->frame, size, h->heldOffset);
  }
  int rc = flush(file);
  if (rc != SQLITE_OK) return rc;
  if (amount == FRAME_HEADER) {
    memcpy(h->header, data, FRAME_HEADER);
    h->heldOffset = offset;
    h->held = 1;
    return SQLITE_OK;
  }
  return h->real->xWrite(file, data, amount, offset);
}

static int walClose(sqlite3_file *file) {
  Held *h = held(file);
  int flushed = flush(file);
  sqlite_nio_sqlite3_free(h->frame);
  h->frame = 0;
  int rc = h->real->xClose(file);
  return flushed != SQLITE_OK ? flushed : rc;
}

static int walRead(sqlite3_file *file, void *into, int amount, sqlite3_int64 offset) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xRead(file, into, amount, offset);
}

static int walTruncate(sqlite3_file *file, sqlite3_int64 size) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xTruncate(file, size);
}

static int walSync(sqlite3_file *file, int flags) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xSync(file, flags);
}

static int walFileSize(sqlite3_file *file, sqlite3_int64 *size) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xFileSize(file, size);
}

static int walLock(sqlite3_file *file, int lock) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xLock(file, lock);
}

static int walUnlock(sqlite3_file *file, int lock) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xUnlock(file, lock);
}

static int walCheckReservedLock(sqlite3_file *file, int *out) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xCheckReservedLock(file, out);
}

static int walFileControl(sqlite3_file *file, int op, void *argument) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xFileControl(file, op, argument);
}

static int walSectorSize(sqlite3_file *file) { return held(file)->real->xSectorSize(file); }

static int walDeviceCharacteristics(sqlite3_file *file) {
  return held(file)->real->xDeviceCharacteristics(file);
}

static int walShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xShmMap(file, page, size, extend, out);
}

static int walShmLock(sqlite3_file *file, int offset, int n, int flags) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xShmLock(file, offset, n, flags);
}

static void walShmBarrier(sqlite3_file *file) {
  flush(file);
  held(file)->real->xShmBarrier(file);
}

static int walShmUnmap(sqlite3_file *file, int deleteFlag) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xShmUnmap(file, deleteFlag);
}

static int walFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xFetch(file, offset, amount, out);
}

static int walUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
  int rc = flush(file);
  return rc != SQLITE_OK ? rc : held(file)->real->xUnfetch(file, offset, page);
}

/* Opens `name` with the unix VFS, in the same memory; a log's methods are then ours. */
static int openFile(sqlite3_vfs *self, sqlite3_filename name, sqlite3_file *file, int flags,
                int *outFlags) {
  (void)self;
  Held *h = held(file);
  memset(h, 0, sizeof *h);
  int rc = unixVfs->xOpen(unixVfs, name, file, flags, outFlags);
  if (rc != SQLITE_OK || !(flags & SQLITE_OPEN_WAL) || !file->pMethods) return rc;
  if (file->pMethods->iVersion < 3) return rc; /* not the methods this wraps: left alone */
  h->real = file->pMethods;
  file->pMethods = &walMethods;
  return rc;
}

static const char vfsName[] = "guesswork-wal-frames";
static pthread_once_t registered = PTHREAD_ONCE_INIT;

static void registerVfs(void) {
  if (sqlite_nio_sqlite3_initialize() != SQLITE_OK) return;
  sqlite3_vfs *real = sqlite_nio_sqlite3_vfs_find("unix");
  if (!real) return;
  vfs = *real;
  vfs.pNext = 0;
  vfs.zName = vfsName;
  vfs.szOsFile = ((real->szOsFile + 7) & ~7) + (int)sizeof(Held);
  vfs.xOpen = openFile;
  walMethods = (sqlite3_io_methods){
      .iVersion = 3,
      .xClose = walClose,
      .xRead = walRead,
      .xWrite = walWrite,
      .xTruncate = walTruncate,
      .xSync = walSync,
      .xFileSize = walFileSize,
      .xLock = walLock,
      .xUnlock = walUnlock,
      .xCheckReservedLock = walCheckReservedLock,
      .xFileControl = walFileControl,
      .xSectorSize = walSectorSize,
      .xDeviceCharacteristics = walDeviceCharacteristics,
      .xShmMap = walShmMap,
      .xShmLock = walShmLock,
      .xShmBarrier = walShmBarrier,
      .xShmUnmap = walShmUnmap,
      .xFetch = walFetch,
      .xUnfetch = walUnfetch,
  };
  unixVfs = real;
  if (sqlite_nio_sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) unixVfs = 0;
}

const char *guesswork_sqlite3_wal_frames_vfs(void) {
  pthread_once(&registered, registerVfs);
  return unixVfs ? vfsName : 0;
}

/* `db`'s log when it is written through this VFS, or NULL. */
static sqlite3_file *wrappedLog(struct sqlite3 *db) {
  sqlite3_file *log = 0;
  int rc = sqlite_nio_sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log);
  return rc == SQLITE_OK && log && log->pMethods == &walMethods ? log : 0;
}

int guesswork_sqlite3_wal_flush(struct sqlite3 *db) {
  sqlite3_file *log = wrappedLog(db);
  return log ? flush(log) : SQLITE_OK;
}

int guesswork_sqlite3_wal_frames_held(struct sqlite3 *db) {
  sqlite3_file *log = wrappedLog(db);
  return log ? held(log)->held : -1;
}
