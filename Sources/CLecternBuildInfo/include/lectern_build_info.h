#ifndef LECTERN_BUILD_INFO_H
#define LECTERN_BUILD_INFO_H

/// The commit the program was built from: `make release` passes it as
/// `-Xcc -DLECTERN_COMMIT=...`; a build without it (a tree without git, `swift build`) says "unknown".
const char *lectern_build_commit(void);

#endif
