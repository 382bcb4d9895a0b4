#ifndef LECTERN_MOBI_SHIM_H
#define LECTERN_MOBI_SHIM_H
// libmobi is loaded on first use with dlopen rather than linked, as djvulibre is (#28): a
// session that never opens a MOBI or AZW3 book has no use for it. Its header is in the default
// include path, so the types (MOBIData, MOBIRawml, MOBIPart, the enums) come from it; every
// function of the library is called through the table below. Calling one of the header's
// functions directly fails at link time (nothing links libmobi), which keeps this rule.
// libmobi needs libxml2 and zlib, which the program links anyway; its call of
// xmlCleanupParser() still binds to the program's own (CLecternXMLCleanupGuard): a library
// loaded with RTLD_LOCAL looks up its symbols in the executable first.
#include <dlfcn.h>
#include <mobi.h>

typedef struct {
    int loaded;
    MOBIData *(*init)(void);
    void (*free)(MOBIData *);
    MOBI_RET (*load_file)(MOBIData *, FILE *);
    MOBI_RET (*load_filename)(MOBIData *, const char *);
    bool (*is_encrypted)(const MOBIData *);
    MOBIRawml *(*init_rawml)(const MOBIData *);
    void (*free_rawml)(MOBIRawml *);
    MOBI_RET (*parse_rawml)(MOBIRawml *, const MOBIData *);
    bool (*is_rawml_kf8)(const MOBIRawml *);
    MOBIFileMeta (*get_filemeta_by_type)(const MOBIFiletype);
} lectern_mobi_api;

// One table for the whole program (a `static` would give each Swift file its own copy); the
// weak definition is merged into one by the linker.
__attribute__((weak)) lectern_mobi_api lectern_mobi_api_table = {0};

static inline lectern_mobi_api *lectern_mobi(void) {
    return &lectern_mobi_api_table;
}

/// Loads libmobi once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_mobi_load(void) {
    lectern_mobi_api *api = lectern_mobi();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libmobi.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libmobi.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_LOAD(field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_LOAD(init, "mobi_init")
    LECTERN_LOAD(free, "mobi_free")
    LECTERN_LOAD(load_file, "mobi_load_file")
    LECTERN_LOAD(load_filename, "mobi_load_filename")
    LECTERN_LOAD(is_encrypted, "mobi_is_encrypted")
    LECTERN_LOAD(init_rawml, "mobi_init_rawml")
    LECTERN_LOAD(free_rawml, "mobi_free_rawml")
    LECTERN_LOAD(parse_rawml, "mobi_parse_rawml")
    LECTERN_LOAD(is_rawml_kf8, "mobi_is_rawml_kf8")
    LECTERN_LOAD(get_filemeta_by_type, "mobi_get_filemeta_by_type")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

// One call each, for the Swift side (only after lectern_mobi_load() returned 1).
static inline MOBIData *lectern_mobi_init(void) { return lectern_mobi()->init(); }
static inline void lectern_mobi_free(MOBIData *m) { lectern_mobi()->free(m); }
static inline MOBI_RET lectern_mobi_load_file(MOBIData *m, FILE *file) { return lectern_mobi()->load_file(m, file); }
static inline MOBI_RET lectern_mobi_load_filename(MOBIData *m, const char *path) { return lectern_mobi()->load_filename(m, path); }
static inline bool lectern_mobi_is_encrypted(const MOBIData *m) { return lectern_mobi()->is_encrypted(m); }
static inline MOBIRawml *lectern_mobi_init_rawml(const MOBIData *m) { return lectern_mobi()->init_rawml(m); }
static inline void lectern_mobi_free_rawml(MOBIRawml *rawml) { lectern_mobi()->free_rawml(rawml); }
static inline MOBI_RET lectern_mobi_parse_rawml(MOBIRawml *rawml, const MOBIData *m) { return lectern_mobi()->parse_rawml(rawml, m); }
static inline bool lectern_mobi_is_rawml_kf8(const MOBIRawml *rawml) { return lectern_mobi()->is_rawml_kf8(rawml); }
static inline MOBIFileMeta lectern_mobi_get_filemeta_by_type(const MOBIFiletype type) { return lectern_mobi()->get_filemeta_by_type(type); }

#ifdef LECTERN_MOBI_ABI_CHECK
// Every field has the type of the function it is loaded from (`cc -fsyntax-only -Werror
// -DLECTERN_MOBI_ABI_CHECK -x c shim.h`; a test runs it).
static inline void lectern_mobi_abi_check(lectern_mobi_api *api) {
    api->init = mobi_init;
    api->free = mobi_free;
    api->load_file = mobi_load_file;
    api->load_filename = mobi_load_filename;
    api->is_encrypted = mobi_is_encrypted;
    api->init_rawml = mobi_init_rawml;
    api->free_rawml = mobi_free_rawml;
    api->parse_rawml = mobi_parse_rawml;
    api->is_rawml_kf8 = mobi_is_rawml_kf8;
    api->get_filemeta_by_type = mobi_get_filemeta_by_type;
}
#endif
#endif
