#ifndef LECTERN_ZLIB_SHIM_H
#define LECTERN_ZLIB_SHIM_H
#include <zlib.h>
/// `inflateInit2` is a macro: expose it as a function. Negative window bits = raw deflate.
static inline int lectern_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif
