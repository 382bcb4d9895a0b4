// libmobi calls libxml2's xmlCleanupParser() after building each book's package document.
// That frees libxml2's global state (encoding handlers, dictionaries, the memory hooks) while
// other threads are still parsing with it — the reader and the library indexer parse XHTML on
// several threads — and crashed `lectern import` of a folder of Kindle books about one run in
// five, a stack overwritten with a book's HTML. libxml2's own documentation says the function
// must not be called in a multithreaded program before its last use of the library; Lectern
// uses libxml2 until it exits. Defined here, in the program, it takes the place of libxml2's
// for every library that calls it (the dynamic linker binds the executable's definition first),
// and does nothing: the memory is the process's until it exits anyway.
#include "xml_cleanup_guard.h"

void xmlCleanupParser(void) {}

int lectern_xml_cleanup_guard_installed(void) { return 1; }
