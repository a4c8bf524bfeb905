#ifndef CGUESSWORK_SQLITE_H
#define CGUESSWORK_SQLITE_H

struct sqlite3;

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for
/// `db`: a statement keeps the plan it was prepared with, instead of being prepared again
/// whenever a newly bound value might change the plan. Answers an SQLite result code.
/// (`sqlite3_db_config` takes a variable number of arguments, which Swift cannot call.)
int guesswork_sqlite3_enable_qpsg(struct sqlite3 *db);

/// The name of a VFS, registered on the first call, that writes each frame of the
/// write-ahead log in one call instead of two (walframes.c); `NULL` if it could not be
/// registered. Open a connection with it to use it.
const char *guesswork_sqlite3_wal_frames_vfs(void);

/// Writes out a frame header the VFS still holds for `db`'s log, if any. Call it after each
/// commit on a connection opened with that VFS, before answering anyone. An SQLite result code.
int guesswork_sqlite3_wal_flush(struct sqlite3 *db);

/// Whether a frame header is held for `db`'s log (1 or 0), or -1 when its log does not use
/// the VFS. For tests.
int guesswork_sqlite3_wal_frames_held(struct sqlite3 *db);

#endif
