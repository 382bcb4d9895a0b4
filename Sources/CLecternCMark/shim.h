#ifndef LECTERN_CMARK_SHIM_H
#define LECTERN_CMARK_SHIM_H
// cmark-gfm and its extensions are loaded on first use with dlopen rather than linked, as
// djvulibre is (#28): a session that never opens a Markdown document has no use for them.
// The headers are in the default include path, so the types and the node and event enums come
// from them; every function is called through the table below. Calling one of the headers'
// functions directly fails at link time (nothing links cmark-gfm), which keeps this rule.
// cmark-gfm's soname carries its full version, which its version header gives.
#include <dlfcn.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm_version.h>

typedef struct {
    int loaded;
    cmark_parser *(*parser_new)(int);
    void (*parser_free)(cmark_parser *);
    void (*parser_feed)(cmark_parser *, const char *, size_t);
    cmark_node *(*parser_finish)(cmark_parser *);
    int (*parser_attach_syntax_extension)(cmark_parser *, cmark_syntax_extension *);
    cmark_llist *(*parser_get_syntax_extensions)(cmark_parser *);
    cmark_syntax_extension *(*find_syntax_extension)(const char *);
    void (*node_free)(cmark_node *);
    cmark_iter *(*iter_new)(cmark_node *);
    void (*iter_free)(cmark_iter *);
    cmark_event_type (*iter_next)(cmark_iter *);
    cmark_node *(*iter_get_node)(cmark_iter *);
    cmark_node_type (*node_get_type)(cmark_node *);
    const char *(*node_get_literal)(cmark_node *);
    int (*node_get_heading_level)(cmark_node *);
    const char *(*node_get_url)(cmark_node *);
    char *(*render_html)(cmark_node *, int, cmark_llist *);
    void (*core_extensions_ensure_registered)(void);
} lectern_cmark_api;

// One table for the whole program (a `static` would give each Swift file its own copy); the
// weak definition is merged into one by the linker.
__attribute__((weak)) lectern_cmark_api lectern_cmark_api_table = {0};

static inline lectern_cmark_api *lectern_cmark(void) {
    return &lectern_cmark_api_table;
}

/// Loads cmark-gfm and its extensions once (callers serialise the first call); returns 1 when
/// they are usable.
static inline int lectern_cmark_load(void) {
    lectern_cmark_api *api = lectern_cmark();
    if (api->loaded) return api->loaded > 0;
    void *core = dlopen("libcmark-gfm.so." CMARK_GFM_VERSION_STRING, RTLD_NOW | RTLD_LOCAL);
    if (!core) core = dlopen("libcmark-gfm.so", RTLD_NOW | RTLD_LOCAL);
    void *extensions = dlopen("libcmark-gfm-extensions.so." CMARK_GFM_VERSION_STRING, RTLD_NOW | RTLD_LOCAL);
    if (!extensions) extensions = dlopen("libcmark-gfm-extensions.so", RTLD_NOW | RTLD_LOCAL);
    if (!core || !extensions) { api->loaded = -1; return 0; }
#define LECTERN_LOAD(handle, field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_LOAD(core, parser_new, "cmark_parser_new")
    LECTERN_LOAD(core, parser_free, "cmark_parser_free")
    LECTERN_LOAD(core, parser_feed, "cmark_parser_feed")
    LECTERN_LOAD(core, parser_finish, "cmark_parser_finish")
    LECTERN_LOAD(core, parser_attach_syntax_extension, "cmark_parser_attach_syntax_extension")
    LECTERN_LOAD(core, parser_get_syntax_extensions, "cmark_parser_get_syntax_extensions")
    LECTERN_LOAD(core, find_syntax_extension, "cmark_find_syntax_extension")
    LECTERN_LOAD(core, node_free, "cmark_node_free")
    LECTERN_LOAD(core, iter_new, "cmark_iter_new")
    LECTERN_LOAD(core, iter_free, "cmark_iter_free")
    LECTERN_LOAD(core, iter_next, "cmark_iter_next")
    LECTERN_LOAD(core, iter_get_node, "cmark_iter_get_node")
    LECTERN_LOAD(core, node_get_type, "cmark_node_get_type")
    LECTERN_LOAD(core, node_get_literal, "cmark_node_get_literal")
    LECTERN_LOAD(core, node_get_heading_level, "cmark_node_get_heading_level")
    LECTERN_LOAD(core, node_get_url, "cmark_node_get_url")
    LECTERN_LOAD(core, render_html, "cmark_render_html")
    LECTERN_LOAD(extensions, core_extensions_ensure_registered, "cmark_gfm_core_extensions_ensure_registered")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

// One call each, for the Swift side (only after lectern_cmark_load() returned 1).
static inline cmark_parser *lectern_cmark_parser_new(int options) { return lectern_cmark()->parser_new(options); }
static inline void lectern_cmark_parser_free(cmark_parser *parser) { lectern_cmark()->parser_free(parser); }
static inline void lectern_cmark_parser_feed(cmark_parser *parser, const char *buffer, size_t length) { lectern_cmark()->parser_feed(parser, buffer, length); }
static inline cmark_node *lectern_cmark_parser_finish(cmark_parser *parser) { return lectern_cmark()->parser_finish(parser); }
static inline int lectern_cmark_parser_attach_syntax_extension(cmark_parser *parser, cmark_syntax_extension *extension) { return lectern_cmark()->parser_attach_syntax_extension(parser, extension); }
static inline cmark_llist *lectern_cmark_parser_get_syntax_extensions(cmark_parser *parser) { return lectern_cmark()->parser_get_syntax_extensions(parser); }
static inline cmark_syntax_extension *lectern_cmark_find_syntax_extension(const char *name) { return lectern_cmark()->find_syntax_extension(name); }
static inline void lectern_cmark_node_free(cmark_node *node) { lectern_cmark()->node_free(node); }
static inline cmark_iter *lectern_cmark_iter_new(cmark_node *root) { return lectern_cmark()->iter_new(root); }
static inline void lectern_cmark_iter_free(cmark_iter *iterator) { lectern_cmark()->iter_free(iterator); }
static inline cmark_event_type lectern_cmark_iter_next(cmark_iter *iterator) { return lectern_cmark()->iter_next(iterator); }
static inline cmark_node *lectern_cmark_iter_get_node(cmark_iter *iterator) { return lectern_cmark()->iter_get_node(iterator); }
static inline cmark_node_type lectern_cmark_node_get_type(cmark_node *node) { return lectern_cmark()->node_get_type(node); }
static inline const char *lectern_cmark_node_get_literal(cmark_node *node) { return lectern_cmark()->node_get_literal(node); }
static inline int lectern_cmark_node_get_heading_level(cmark_node *node) { return lectern_cmark()->node_get_heading_level(node); }
static inline const char *lectern_cmark_node_get_url(cmark_node *node) { return lectern_cmark()->node_get_url(node); }
static inline char *lectern_cmark_render_html(cmark_node *root, int options, cmark_llist *extensions) { return lectern_cmark()->render_html(root, options, extensions); }
static inline void lectern_cmark_gfm_core_extensions_ensure_registered(void) { lectern_cmark()->core_extensions_ensure_registered(); }

#ifdef LECTERN_CMARK_ABI_CHECK
// Every field has the type of the function it is loaded from (`cc -fsyntax-only -Werror
// -DLECTERN_CMARK_ABI_CHECK -x c shim.h`; a test runs it).
static inline void lectern_cmark_abi_check(lectern_cmark_api *api) {
    api->parser_new = cmark_parser_new;
    api->parser_free = cmark_parser_free;
    api->parser_feed = cmark_parser_feed;
    api->parser_finish = cmark_parser_finish;
    api->parser_attach_syntax_extension = cmark_parser_attach_syntax_extension;
    api->parser_get_syntax_extensions = cmark_parser_get_syntax_extensions;
    api->find_syntax_extension = cmark_find_syntax_extension;
    api->node_free = cmark_node_free;
    api->iter_new = cmark_iter_new;
    api->iter_free = cmark_iter_free;
    api->iter_next = cmark_iter_next;
    api->iter_get_node = cmark_iter_get_node;
    api->node_get_type = cmark_node_get_type;
    api->node_get_literal = cmark_node_get_literal;
    api->node_get_heading_level = cmark_node_get_heading_level;
    api->node_get_url = cmark_node_get_url;
    api->render_html = cmark_render_html;
    api->core_extensions_ensure_registered = cmark_gfm_core_extensions_ensure_registered;
}
#endif
#endif
