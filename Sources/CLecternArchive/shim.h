#ifndef LECTERN_ARCHIVE_SHIM_H
#define LECTERN_ARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>

/* The file-type constants are casts, which Swift does not import. */
static const unsigned int lectern_archive_ifmt = 0170000;
static const unsigned int lectern_archive_ifreg = 0100000;
static const unsigned int lectern_archive_ifdir = 0040000;
#endif
