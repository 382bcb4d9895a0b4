#ifndef LECTERN_STREAMS_H
#define LECTERN_STREAMS_H
#include <stdio.h>

/// Flushes standard output and standard error only. Not `fflush(NULL)`: that takes every
/// stream's lock, and libspeechd's reader thread holds its socket stream's lock while it waits
/// for the server, so `lectern listen --tts` through speech-dispatcher would hang. (Swift 6
/// cannot name C's mutable `stdout` global, hence this helper.)
static inline void lectern_flush_standard_streams(void) {
    fflush(stdout);
    fflush(stderr);
}

#endif
