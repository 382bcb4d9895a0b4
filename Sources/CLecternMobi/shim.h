#ifndef LECTERN_MOBI_SHIM_H
#define LECTERN_MOBI_SHIM_H
#include <mobi.h>
#endif
