#ifndef CGUESSWORK_SQLITE_H
#define CGUESSWORK_SQLITE_H

struct sqlite3;

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for
/// `db`: a statement keeps the plan it was prepared with, instead of being prepared again
/// whenever a newly bound value might change the plan. Answers an SQLite result code.
/// (`sqlite3_db_config` takes a variable number of arguments, which Swift cannot call.)
int guesswork_sqlite3_enable_qpsg(struct sqlite3 *db);

#endif
