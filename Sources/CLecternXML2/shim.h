#ifndef LECTERN_XML2_SHIM_H
#define LECTERN_XML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; ICU's UErrorCode clashes with Foundation's copy. Undefining
// this only drops two trailing fields of xmlCharEncodingHandler, which Swift never allocates.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

/// `xmlFree` is a macro-backed global function pointer: give Swift a function.
static inline void lectern_xmlFree(void *ptr) { xmlFree(ptr); }
#endif
