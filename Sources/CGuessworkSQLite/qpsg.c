#include "CGuessworkSQLite.h"
#include "sqlite_nio_sqlite3.h"

int guesswork_sqlite3_enable_qpsg(struct sqlite3 *db) {
  return sqlite_nio_sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_QPSG, 1, (int *)0);
}
