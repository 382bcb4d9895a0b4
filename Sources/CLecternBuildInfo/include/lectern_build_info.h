#ifndef LECTERN_BUILD_INFO_H
#define LECTERN_BUILD_INFO_H

/// The commit the program was built from: every `make` build writes it into commit.inc beside
/// build_info.c; a build without it (a tree without git, a bare `swift build`) says "unknown".
const char *lectern_build_commit(void);

#endif
