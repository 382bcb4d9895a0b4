#ifndef LECTERN_SQLITE_SHIM_H
#define LECTERN_SQLITE_SHIM_H
#include <sqlite3.h>
/// SQLITE_TRANSIENT is a cast macro Swift cannot see: SQLite copies the bound value.
static inline sqlite3_destructor_type lectern_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
