#ifndef LECTERN_POPPLER_SHIM_H
#define LECTERN_POPPLER_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

// poppler-glib is loaded on first use with dlopen rather than linked. Linked, it brings glib,
// gio, cairo, X11, NSS and some fifty other libraries into every `lectern` process: about
// 10 ms and 6 MB of resident memory before any command runs, for all the sessions that
// never open a PDF.
//
// Without linking there are no pkg-config include paths either, so the few types and
// constants Lectern uses are declared here from the stable ABI of poppler-glib (soname 8) and
// glib 2.0. Compiled with LECTERN_POPPLER_ABI_CHECK and the real headers
// (`cc -fsyntax-only -DLECTERN_POPPLER_ABI_CHECK $(pkg-config --cflags poppler-glib) -x c shim.h`),
// the static assertions at the end compare every declaration with them; a test runs it.

/// `GError`.
typedef struct lectern_gerror {
    uint32_t domain;
    int code;
    char *message;
} lectern_gerror;

/// `PopplerRectangle`.
typedef struct lectern_poppler_rectangle {
    double x1, y1, x2, y2;
} lectern_poppler_rectangle;

/// `PopplerDest`.
typedef struct lectern_poppler_dest {
    int type;
    int page_num;
    double left, bottom, right, top, zoom;
    char *named_dest;
    unsigned int change_left : 1;
    unsigned int change_top : 1;
    unsigned int change_zoom : 1;
} lectern_poppler_dest;

/// The members every `PopplerAction` variant starts with, and the third one of the two
/// variants Lectern reads: `goto_dest.dest` and `uri.uri`.
typedef struct lectern_poppler_action {
    int type;
    char *title;
    void *target;
} lectern_poppler_action;

// Objects handled only through pointers.
typedef struct lectern_poppler_document lectern_poppler_document;
typedef struct lectern_poppler_page lectern_poppler_page;
typedef struct lectern_poppler_index_iter lectern_poppler_index_iter;
typedef struct lectern_gbytes lectern_gbytes;
typedef struct lectern_ginput_stream lectern_ginput_stream;
typedef struct lectern_cairo_surface lectern_cairo_surface;
typedef struct lectern_cairo lectern_cairo;

enum {
    LECTERN_POPPLER_ERROR_ENCRYPTED = 1,
    LECTERN_POPPLER_ERROR_OPEN_FILE = 2,
    LECTERN_POPPLER_ACTION_GOTO_DEST = 2,
    LECTERN_POPPLER_ACTION_URI = 5,
    LECTERN_POPPLER_DEST_NAMED = 9,
    LECTERN_POPPLER_SELECTION_GLYPH = 0,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_PRINT = 1 << 0,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_MODIFY = 1 << 1,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_COPY = 1 << 2,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_ADD_NOTES = 1 << 3,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_FILL_FORM = 1 << 4,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_EXTRACT_CONTENTS = 1 << 5,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_ASSEMBLE = 1 << 6,
    LECTERN_POPPLER_PERMISSIONS_OK_TO_PRINT_HIGH_RESOLUTION = 1 << 7,
    LECTERN_POPPLER_PERMISSIONS_FULL = 0xff,
    LECTERN_CAIRO_FORMAT_ARGB32 = 0,
    LECTERN_CAIRO_STATUS_SUCCESS = 0,
};

typedef struct {
    int loaded;
    // glib and gio
    void (*g_free)(void *);
    void (*g_object_unref)(void *);
    void (*g_error_free)(lectern_gerror *);
    lectern_gbytes *(*g_bytes_new)(const void *, size_t);
    void (*g_bytes_unref)(lectern_gbytes *);
    lectern_ginput_stream *(*g_memory_input_stream_new_from_bytes)(lectern_gbytes *);
    char *(*g_filename_to_uri)(const char *, const char *, lectern_gerror **);
    // poppler
    uint32_t (*error_quark)(void);
    lectern_poppler_document *(*document_new_from_file)(const char *, const char *, lectern_gerror **);
    lectern_poppler_document *(*document_new_from_stream)(lectern_ginput_stream *, int64_t, const char *, void *, lectern_gerror **);
    int (*document_get_n_pages)(lectern_poppler_document *);
    unsigned int (*document_get_permissions)(lectern_poppler_document *);
    char *(*document_get_title)(lectern_poppler_document *);
    char *(*document_get_author)(lectern_poppler_document *);
    char *(*document_get_subject)(lectern_poppler_document *);
    char *(*document_get_keywords)(lectern_poppler_document *);
    char *(*document_get_creator)(lectern_poppler_document *);
    char *(*document_get_producer)(lectern_poppler_document *);
    time_t (*document_get_creation_date)(lectern_poppler_document *);
    time_t (*document_get_modification_date)(lectern_poppler_document *);
    lectern_poppler_page *(*document_get_page)(lectern_poppler_document *, int);
    lectern_poppler_dest *(*document_find_dest)(lectern_poppler_document *, const char *);
    void (*dest_free)(lectern_poppler_dest *);
    lectern_poppler_index_iter *(*index_iter_new)(lectern_poppler_document *);
    void (*index_iter_free)(lectern_poppler_index_iter *);
    lectern_poppler_index_iter *(*index_iter_get_child)(lectern_poppler_index_iter *);
    int (*index_iter_next)(lectern_poppler_index_iter *);
    lectern_poppler_action *(*index_iter_get_action)(lectern_poppler_index_iter *);
    void (*action_free)(lectern_poppler_action *);
    char *(*page_get_label)(lectern_poppler_page *);
    void (*page_get_size)(lectern_poppler_page *, double *, double *);
    char *(*page_get_selected_text)(lectern_poppler_page *, int, lectern_poppler_rectangle *);
    int (*page_get_text_layout_for_area)(lectern_poppler_page *, lectern_poppler_rectangle *, lectern_poppler_rectangle **, unsigned int *);
    void (*page_render)(lectern_poppler_page *, lectern_cairo *);
    // cairo, which poppler-glib renders pages with
    lectern_cairo_surface *(*cairo_image_surface_create)(int, int, int);
    unsigned char *(*cairo_image_surface_get_data)(lectern_cairo_surface *);
    int (*cairo_image_surface_get_stride)(lectern_cairo_surface *);
    int (*cairo_surface_status)(lectern_cairo_surface *);
    void (*cairo_surface_flush)(lectern_cairo_surface *);
    void (*cairo_surface_destroy)(lectern_cairo_surface *);
    lectern_cairo *(*cairo_create)(lectern_cairo_surface *);
    void (*cairo_scale)(lectern_cairo *, double, double);
    void (*cairo_set_source_rgb)(lectern_cairo *, double, double, double);
    void (*cairo_paint)(lectern_cairo *);
    void (*cairo_destroy)(lectern_cairo *);
} lectern_poppler_api;

// One table for the whole program: a `static` inside an inline function would give each Swift
// file its own copy (each is compiled on its own), and only the first would ever be loaded. A
// weak definition is merged into one by the linker.
__attribute__((weak)) lectern_poppler_api lectern_poppler_api_table = {0};

static inline lectern_poppler_api *lectern_poppler(void) {
    return &lectern_poppler_api_table;
}

/// Loads poppler-glib once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_poppler_load(void) {
    lectern_poppler_api *api = lectern_poppler();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libpoppler-glib.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
    // dlsym on the handle also finds the symbols of glib and gio, which poppler-glib needs.
#define LECTERN_LOAD(field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_LOAD(g_free, "g_free")
    LECTERN_LOAD(g_object_unref, "g_object_unref")
    LECTERN_LOAD(g_error_free, "g_error_free")
    LECTERN_LOAD(g_bytes_new, "g_bytes_new")
    LECTERN_LOAD(g_bytes_unref, "g_bytes_unref")
    LECTERN_LOAD(g_memory_input_stream_new_from_bytes, "g_memory_input_stream_new_from_bytes")
    LECTERN_LOAD(g_filename_to_uri, "g_filename_to_uri")
    LECTERN_LOAD(error_quark, "poppler_error_quark")
    LECTERN_LOAD(document_new_from_file, "poppler_document_new_from_file")
    LECTERN_LOAD(document_new_from_stream, "poppler_document_new_from_stream")
    LECTERN_LOAD(document_get_n_pages, "poppler_document_get_n_pages")
    LECTERN_LOAD(document_get_permissions, "poppler_document_get_permissions")
    LECTERN_LOAD(document_get_title, "poppler_document_get_title")
    LECTERN_LOAD(document_get_author, "poppler_document_get_author")
    LECTERN_LOAD(document_get_subject, "poppler_document_get_subject")
    LECTERN_LOAD(document_get_keywords, "poppler_document_get_keywords")
    LECTERN_LOAD(document_get_creator, "poppler_document_get_creator")
    LECTERN_LOAD(document_get_producer, "poppler_document_get_producer")
    LECTERN_LOAD(document_get_creation_date, "poppler_document_get_creation_date")
    LECTERN_LOAD(document_get_modification_date, "poppler_document_get_modification_date")
    LECTERN_LOAD(document_get_page, "poppler_document_get_page")
    LECTERN_LOAD(document_find_dest, "poppler_document_find_dest")
    LECTERN_LOAD(dest_free, "poppler_dest_free")
    LECTERN_LOAD(index_iter_new, "poppler_index_iter_new")
    LECTERN_LOAD(index_iter_free, "poppler_index_iter_free")
    LECTERN_LOAD(index_iter_get_child, "poppler_index_iter_get_child")
    LECTERN_LOAD(index_iter_next, "poppler_index_iter_next")
    LECTERN_LOAD(index_iter_get_action, "poppler_index_iter_get_action")
    LECTERN_LOAD(action_free, "poppler_action_free")
    LECTERN_LOAD(page_get_label, "poppler_page_get_label")
    LECTERN_LOAD(page_get_size, "poppler_page_get_size")
    LECTERN_LOAD(page_get_selected_text, "poppler_page_get_selected_text")
    LECTERN_LOAD(page_get_text_layout_for_area, "poppler_page_get_text_layout_for_area")
    LECTERN_LOAD(page_render, "poppler_page_render")
    LECTERN_LOAD(cairo_image_surface_create, "cairo_image_surface_create")
    LECTERN_LOAD(cairo_image_surface_get_data, "cairo_image_surface_get_data")
    LECTERN_LOAD(cairo_image_surface_get_stride, "cairo_image_surface_get_stride")
    LECTERN_LOAD(cairo_surface_status, "cairo_surface_status")
    LECTERN_LOAD(cairo_surface_flush, "cairo_surface_flush")
    LECTERN_LOAD(cairo_surface_destroy, "cairo_surface_destroy")
    LECTERN_LOAD(cairo_create, "cairo_create")
    LECTERN_LOAD(cairo_scale, "cairo_scale")
    LECTERN_LOAD(cairo_set_source_rgb, "cairo_set_source_rgb")
    LECTERN_LOAD(cairo_paint, "cairo_paint")
    LECTERN_LOAD(cairo_destroy, "cairo_destroy")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

// One call each, for Swift (which would otherwise unwrap a function pointer at every call).
static inline void lectern_g_free(void *pointer) { lectern_poppler()->g_free(pointer); }
static inline void lectern_g_object_unref(void *object) { lectern_poppler()->g_object_unref(object); }
static inline void lectern_g_error_free(lectern_gerror *error) { lectern_poppler()->g_error_free(error); }
static inline lectern_gbytes *lectern_g_bytes_new(const void *data, size_t size) { return lectern_poppler()->g_bytes_new(data, size); }
static inline void lectern_g_bytes_unref(lectern_gbytes *bytes) { lectern_poppler()->g_bytes_unref(bytes); }
static inline lectern_ginput_stream *lectern_g_memory_input_stream_new_from_bytes(lectern_gbytes *bytes) { return lectern_poppler()->g_memory_input_stream_new_from_bytes(bytes); }
static inline char *lectern_g_filename_to_uri(const char *path, lectern_gerror **error) { return lectern_poppler()->g_filename_to_uri(path, NULL, error); }
static inline uint32_t lectern_poppler_error_domain(void) { return lectern_poppler()->error_quark(); }
static inline lectern_poppler_document *lectern_poppler_document_new_from_file(const char *uri, const char *password, lectern_gerror **error) { return lectern_poppler()->document_new_from_file(uri, password, error); }
static inline lectern_poppler_document *lectern_poppler_document_new_from_stream(lectern_ginput_stream *stream, int64_t length, const char *password, lectern_gerror **error) { return lectern_poppler()->document_new_from_stream(stream, length, password, NULL, error); }
static inline int lectern_poppler_document_get_n_pages(lectern_poppler_document *document) { return lectern_poppler()->document_get_n_pages(document); }
static inline unsigned int lectern_poppler_document_get_permissions(lectern_poppler_document *document) { return lectern_poppler()->document_get_permissions(document); }
static inline char *lectern_poppler_document_get_title(lectern_poppler_document *document) { return lectern_poppler()->document_get_title(document); }
static inline char *lectern_poppler_document_get_author(lectern_poppler_document *document) { return lectern_poppler()->document_get_author(document); }
static inline char *lectern_poppler_document_get_subject(lectern_poppler_document *document) { return lectern_poppler()->document_get_subject(document); }
static inline char *lectern_poppler_document_get_keywords(lectern_poppler_document *document) { return lectern_poppler()->document_get_keywords(document); }
static inline char *lectern_poppler_document_get_creator(lectern_poppler_document *document) { return lectern_poppler()->document_get_creator(document); }
static inline char *lectern_poppler_document_get_producer(lectern_poppler_document *document) { return lectern_poppler()->document_get_producer(document); }
static inline time_t lectern_poppler_document_get_creation_date(lectern_poppler_document *document) { return lectern_poppler()->document_get_creation_date(document); }
static inline time_t lectern_poppler_document_get_modification_date(lectern_poppler_document *document) { return lectern_poppler()->document_get_modification_date(document); }
static inline lectern_poppler_page *lectern_poppler_document_get_page(lectern_poppler_document *document, int index) { return lectern_poppler()->document_get_page(document, index); }
static inline lectern_poppler_dest *lectern_poppler_document_find_dest(lectern_poppler_document *document, const char *name) { return lectern_poppler()->document_find_dest(document, name); }
static inline void lectern_poppler_dest_free(lectern_poppler_dest *dest) { lectern_poppler()->dest_free(dest); }
static inline lectern_poppler_index_iter *lectern_poppler_index_iter_new(lectern_poppler_document *document) { return lectern_poppler()->index_iter_new(document); }
static inline void lectern_poppler_index_iter_free(lectern_poppler_index_iter *iter) { lectern_poppler()->index_iter_free(iter); }
static inline lectern_poppler_index_iter *lectern_poppler_index_iter_get_child(lectern_poppler_index_iter *iter) { return lectern_poppler()->index_iter_get_child(iter); }
static inline int lectern_poppler_index_iter_next(lectern_poppler_index_iter *iter) { return lectern_poppler()->index_iter_next(iter); }
static inline lectern_poppler_action *lectern_poppler_index_iter_get_action(lectern_poppler_index_iter *iter) { return lectern_poppler()->index_iter_get_action(iter); }
static inline void lectern_poppler_action_free(lectern_poppler_action *action) { lectern_poppler()->action_free(action); }
static inline char *lectern_poppler_page_get_label(lectern_poppler_page *page) { return lectern_poppler()->page_get_label(page); }
static inline void lectern_poppler_page_get_size(lectern_poppler_page *page, double *width, double *height) { lectern_poppler()->page_get_size(page, width, height); }
static inline char *lectern_poppler_page_get_selected_text(lectern_poppler_page *page, lectern_poppler_rectangle *area) { return lectern_poppler()->page_get_selected_text(page, LECTERN_POPPLER_SELECTION_GLYPH, area); }
static inline int lectern_poppler_page_get_text_layout_for_area(lectern_poppler_page *page, lectern_poppler_rectangle *area, lectern_poppler_rectangle **rectangles, unsigned int *count) { return lectern_poppler()->page_get_text_layout_for_area(page, area, rectangles, count); }

/// Draws `page` on white into a new ARGB32 image of `width` × `height` pixels, scaled by
/// `scale`; NULL when cairo cannot allocate it. Free it with ``lectern_cairo_surface_destroy``.
static inline lectern_cairo_surface *lectern_poppler_page_render_image(lectern_poppler_page *page, int width, int height, double scale) {
    lectern_poppler_api *api = lectern_poppler();
    lectern_cairo_surface *surface = api->cairo_image_surface_create(LECTERN_CAIRO_FORMAT_ARGB32, width, height);
    if (!surface) return NULL;
    if (api->cairo_surface_status(surface) != LECTERN_CAIRO_STATUS_SUCCESS) { api->cairo_surface_destroy(surface); return NULL; }
    lectern_cairo *cairo = api->cairo_create(surface);
    api->cairo_set_source_rgb(cairo, 1, 1, 1);
    api->cairo_paint(cairo);
    api->cairo_scale(cairo, scale, scale);
    api->page_render(page, cairo);
    api->cairo_destroy(cairo);
    api->cairo_surface_flush(surface);
    return surface;
}
static inline unsigned char *lectern_cairo_image_surface_get_data(lectern_cairo_surface *surface) { return lectern_poppler()->cairo_image_surface_get_data(surface); }
static inline int lectern_cairo_image_surface_get_stride(lectern_cairo_surface *surface) { return lectern_poppler()->cairo_image_surface_get_stride(surface); }
static inline void lectern_cairo_surface_destroy(lectern_cairo_surface *surface) { lectern_poppler()->cairo_surface_destroy(surface); }

#ifdef LECTERN_POPPLER_ABI_CHECK
#include <poppler.h>
#include <gio/gio.h>
#define LECTERN_SAME_FIELD(ours, theirs, ourField, theirField) \
    _Static_assert(offsetof(ours, ourField) == offsetof(theirs, theirField) \
                   && sizeof(((ours *)0)->ourField) == sizeof(((theirs *)0)->theirField), #ours "." #ourField);
_Static_assert(sizeof(lectern_gerror) == sizeof(GError), "GError");
LECTERN_SAME_FIELD(lectern_gerror, GError, domain, domain)
LECTERN_SAME_FIELD(lectern_gerror, GError, code, code)
LECTERN_SAME_FIELD(lectern_gerror, GError, message, message)
_Static_assert(sizeof(lectern_poppler_rectangle) == sizeof(PopplerRectangle), "PopplerRectangle");
LECTERN_SAME_FIELD(lectern_poppler_rectangle, PopplerRectangle, x1, x1)
LECTERN_SAME_FIELD(lectern_poppler_rectangle, PopplerRectangle, y2, y2)
_Static_assert(sizeof(lectern_poppler_dest) == sizeof(PopplerDest), "PopplerDest");
LECTERN_SAME_FIELD(lectern_poppler_dest, PopplerDest, type, type)
LECTERN_SAME_FIELD(lectern_poppler_dest, PopplerDest, page_num, page_num)
LECTERN_SAME_FIELD(lectern_poppler_dest, PopplerDest, zoom, zoom)
LECTERN_SAME_FIELD(lectern_poppler_dest, PopplerDest, named_dest, named_dest)
LECTERN_SAME_FIELD(lectern_poppler_action, PopplerActionAny, type, type)
LECTERN_SAME_FIELD(lectern_poppler_action, PopplerActionAny, title, title)
LECTERN_SAME_FIELD(lectern_poppler_action, PopplerActionGotoDest, target, dest)
LECTERN_SAME_FIELD(lectern_poppler_action, PopplerActionUri, target, uri)
_Static_assert(sizeof(PopplerActionType) == sizeof(int) && sizeof(PopplerDestType) == sizeof(int)
               && sizeof(PopplerPermissions) == sizeof(unsigned int) && sizeof(PopplerSelectionStyle) == sizeof(int)
               && sizeof(GQuark) == sizeof(uint32_t) && sizeof(goffset) == sizeof(int64_t) && sizeof(gboolean) == sizeof(int)
               && sizeof(guint) == sizeof(unsigned int) && sizeof(gsize) == sizeof(size_t), "scalar types");
#define LECTERN_SAME_VALUE(name) _Static_assert((long)LECTERN_POPPLER_##name == (long)POPPLER_##name, #name);
LECTERN_SAME_VALUE(ERROR_ENCRYPTED)
LECTERN_SAME_VALUE(ERROR_OPEN_FILE)
LECTERN_SAME_VALUE(ACTION_GOTO_DEST)
LECTERN_SAME_VALUE(ACTION_URI)
LECTERN_SAME_VALUE(DEST_NAMED)
LECTERN_SAME_VALUE(SELECTION_GLYPH)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_PRINT)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_MODIFY)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_COPY)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_ADD_NOTES)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_FILL_FORM)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_EXTRACT_CONTENTS)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_ASSEMBLE)
LECTERN_SAME_VALUE(PERMISSIONS_OK_TO_PRINT_HIGH_RESOLUTION)
LECTERN_SAME_VALUE(PERMISSIONS_FULL)
#include <cairo.h>
_Static_assert(LECTERN_CAIRO_FORMAT_ARGB32 == CAIRO_FORMAT_ARGB32 && LECTERN_CAIRO_STATUS_SUCCESS == CAIRO_STATUS_SUCCESS, "cairo");
#endif
#endif
