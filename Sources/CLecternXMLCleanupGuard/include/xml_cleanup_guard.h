#ifndef LECTERN_XML_CLEANUP_GUARD_H
#define LECTERN_XML_CLEANUP_GUARD_H

/// Always 1: referenced from Swift so that the object defining the guard is linked in.
int lectern_xml_cleanup_guard_installed(void);

#endif
