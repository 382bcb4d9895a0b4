#include "lectern_build_info.h"

// The Makefile writes the commit into commit.inc (ignored by git) and rewrites it only when the
// commit changes: only this file is then recompiled, where a define on the command line
// (`-Xcc -D…`) reaches every target's compilation and rebuilt the whole program on each commit.
#if __has_include("commit.inc")
#include "commit.inc"
#endif

#ifndef LECTERN_COMMIT
#define LECTERN_COMMIT "unknown"
#endif

const char *lectern_build_commit(void) {
    return LECTERN_COMMIT;
}
