#ifndef LECTERN_ZIP_SHIM_H
#define LECTERN_ZIP_SHIM_H
#include <zip.h>
#endif
