#include "lectern_build_info.h"

#ifndef LECTERN_COMMIT
#define LECTERN_COMMIT "unknown"
#endif

const char *lectern_build_commit(void) {
    return LECTERN_COMMIT;
}
