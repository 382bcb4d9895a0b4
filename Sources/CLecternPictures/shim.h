#ifndef LECTERN_PICTURES_SHIM_H
#define LECTERN_PICTURES_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

// libchafa (terminal pictures) and gdk-pixbuf (image decoding) are loaded on first use with
// dlopen, like poppler-glib: linked, they would bring glib, gobject, gio, libpng, libjpeg and
// libtiff into every `lectern` process, also the many that never draw a picture.
//
// The few types and constants used are declared here from the stable ABIs (libchafa.so.0,
// libgdk_pixbuf-2.0.so.0, glib 2.0). Compiled with LECTERN_PICTURES_ABI_CHECK and the real
// headers, the static assertions at the end compare them; a test runs that check.

typedef struct lectern_pictures_gerror {
    uint32_t domain;
    int code;
    char *message;
} lectern_pictures_gerror;

/// `GString`: only its first two members are read.
typedef struct lectern_gstring {
    char *str;
    size_t len;
    size_t allocated_len;
} lectern_gstring;

typedef struct lectern_pixbuf_loader lectern_pixbuf_loader;
typedef struct lectern_pixbuf lectern_pixbuf;
typedef struct lectern_chafa_canvas_config lectern_chafa_canvas_config;
typedef struct lectern_chafa_canvas lectern_chafa_canvas;
typedef struct lectern_chafa_symbol_map lectern_chafa_symbol_map;
typedef struct lectern_chafa_term_db lectern_chafa_term_db;
typedef struct lectern_chafa_term_info lectern_chafa_term_info;

/// The `size-prepared` signal handler of a pixbuf loader.
typedef void (*lectern_size_prepared_handler)(lectern_pixbuf_loader *loader, int width, int height, void *context);

enum {
    LECTERN_CHAFA_CANVAS_MODE_TRUECOLOR = 0,
    LECTERN_CHAFA_CANVAS_MODE_INDEXED_256 = 1,
    LECTERN_CHAFA_CANVAS_MODE_INDEXED_16 = 3,
    LECTERN_CHAFA_CANVAS_MODE_FGBG = 5,
    LECTERN_CHAFA_PIXEL_MODE_SYMBOLS = 0,
    LECTERN_CHAFA_PIXEL_MODE_SIXELS = 1,
    LECTERN_CHAFA_PIXEL_MODE_KITTY = 2,
    LECTERN_CHAFA_PIXEL_MODE_ITERM2 = 3,
    LECTERN_CHAFA_PIXEL_RGBA8_PREMULTIPLIED = 0,
    LECTERN_CHAFA_PIXEL_BGRA8_PREMULTIPLIED = 1,
    LECTERN_CHAFA_PIXEL_RGBA8_UNASSOCIATED = 4,
    LECTERN_CHAFA_PIXEL_RGB8 = 8,
    LECTERN_CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES = 1 << 0,
    LECTERN_CHAFA_DITHER_MODE_NONE = 0,
    LECTERN_CHAFA_DITHER_MODE_ORDERED = 1,
    LECTERN_CHAFA_SYMBOL_TAG_SPACE = 1 << 0,
    LECTERN_CHAFA_SYMBOL_TAG_SOLID = 1 << 1,
    LECTERN_CHAFA_SYMBOL_TAG_BLOCK = 1 << 3,
    LECTERN_CHAFA_SYMBOL_TAG_QUAD = 1 << 7,
    LECTERN_CHAFA_SYMBOL_TAG_HHALF = 1 << 8,
    LECTERN_CHAFA_SYMBOL_TAG_VHALF = 1 << 9,
    LECTERN_CHAFA_SYMBOL_TAG_BRAILLE = 1 << 11,
    LECTERN_CHAFA_SYMBOL_TAG_SEXTANT = 1 << 22,
};

typedef struct {
    int loaded;
    // glib and gobject
    void (*g_object_unref)(void *);
    void (*g_error_free)(lectern_pictures_gerror *);
    char *(*g_string_free)(lectern_gstring *, int);
    unsigned long (*g_signal_connect_data)(void *, const char *, void *, void *, void *, int);
    // gdk-pixbuf
    lectern_pixbuf_loader *(*loader_new)(void);
    int (*loader_write)(lectern_pixbuf_loader *, const uint8_t *, size_t, lectern_pictures_gerror **);
    int (*loader_close)(lectern_pixbuf_loader *, lectern_pictures_gerror **);
    lectern_pixbuf *(*loader_get_pixbuf)(lectern_pixbuf_loader *);
    void (*loader_set_size)(lectern_pixbuf_loader *, int, int);
    int (*pixbuf_get_width)(const lectern_pixbuf *);
    int (*pixbuf_get_height)(const lectern_pixbuf *);
    int (*pixbuf_get_rowstride)(const lectern_pixbuf *);
    int (*pixbuf_get_n_channels)(const lectern_pixbuf *);
    int (*pixbuf_get_has_alpha)(const lectern_pixbuf *);
    int (*pixbuf_get_bits_per_sample)(const lectern_pixbuf *);
    const uint8_t *(*pixbuf_read_pixels)(const lectern_pixbuf *);
    // chafa
    lectern_chafa_canvas_config *(*config_new)(void);
    void (*config_unref)(lectern_chafa_canvas_config *);
    void (*config_set_geometry)(lectern_chafa_canvas_config *, int, int);
    void (*config_set_cell_geometry)(lectern_chafa_canvas_config *, int, int);
    void (*config_set_canvas_mode)(lectern_chafa_canvas_config *, int);
    void (*config_set_pixel_mode)(lectern_chafa_canvas_config *, int);
    void (*config_set_dither_mode)(lectern_chafa_canvas_config *, int);
    void (*config_set_optimizations)(lectern_chafa_canvas_config *, int);
    void (*config_set_symbol_map)(lectern_chafa_canvas_config *, const lectern_chafa_symbol_map *);
    lectern_chafa_symbol_map *(*symbol_map_new)(void);
    void (*symbol_map_unref)(lectern_chafa_symbol_map *);
    void (*symbol_map_add_by_tags)(lectern_chafa_symbol_map *, int);
    lectern_chafa_canvas *(*canvas_new)(const lectern_chafa_canvas_config *);
    void (*canvas_unref)(lectern_chafa_canvas *);
    void (*canvas_draw_all_pixels)(lectern_chafa_canvas *, int, const uint8_t *, int, int, int);
    lectern_gstring *(*canvas_print)(lectern_chafa_canvas *, lectern_chafa_term_info *);
    lectern_chafa_term_db *(*term_db_get_default)(void);
    lectern_chafa_term_info *(*term_db_get_fallback_info)(lectern_chafa_term_db *);
    void (*term_info_unref)(lectern_chafa_term_info *);
} lectern_pictures_api;

// One table for the whole program (see CLecternPoppler's shim for why it is a weak global).
__attribute__((weak)) lectern_pictures_api lectern_pictures_api_table = {0};

static inline lectern_pictures_api *lectern_pictures(void) {
    return &lectern_pictures_api_table;
}

/// Loads gdk-pixbuf and chafa once (callers serialise the first call); 1 when both are usable.
static inline int lectern_pictures_load(void) {
    lectern_pictures_api *api = lectern_pictures();
    if (api->loaded) return api->loaded > 0;
    void *pixbuf = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    void *chafa = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!pixbuf || !chafa) { api->loaded = -1; return 0; }
#define LECTERN_LOAD(handle, field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    // dlsym on a handle also searches the libraries it depends on: glib and gobject.
    LECTERN_LOAD(pixbuf, g_object_unref, "g_object_unref")
    LECTERN_LOAD(pixbuf, g_error_free, "g_error_free")
    LECTERN_LOAD(chafa, g_string_free, "g_string_free")
    LECTERN_LOAD(pixbuf, g_signal_connect_data, "g_signal_connect_data")
    LECTERN_LOAD(pixbuf, loader_new, "gdk_pixbuf_loader_new")
    LECTERN_LOAD(pixbuf, loader_write, "gdk_pixbuf_loader_write")
    LECTERN_LOAD(pixbuf, loader_close, "gdk_pixbuf_loader_close")
    LECTERN_LOAD(pixbuf, loader_get_pixbuf, "gdk_pixbuf_loader_get_pixbuf")
    LECTERN_LOAD(pixbuf, loader_set_size, "gdk_pixbuf_loader_set_size")
    LECTERN_LOAD(pixbuf, pixbuf_get_width, "gdk_pixbuf_get_width")
    LECTERN_LOAD(pixbuf, pixbuf_get_height, "gdk_pixbuf_get_height")
    LECTERN_LOAD(pixbuf, pixbuf_get_rowstride, "gdk_pixbuf_get_rowstride")
    LECTERN_LOAD(pixbuf, pixbuf_get_n_channels, "gdk_pixbuf_get_n_channels")
    LECTERN_LOAD(pixbuf, pixbuf_get_has_alpha, "gdk_pixbuf_get_has_alpha")
    LECTERN_LOAD(pixbuf, pixbuf_get_bits_per_sample, "gdk_pixbuf_get_bits_per_sample")
    LECTERN_LOAD(pixbuf, pixbuf_read_pixels, "gdk_pixbuf_read_pixels")
    LECTERN_LOAD(chafa, config_new, "chafa_canvas_config_new")
    LECTERN_LOAD(chafa, config_unref, "chafa_canvas_config_unref")
    LECTERN_LOAD(chafa, config_set_geometry, "chafa_canvas_config_set_geometry")
    LECTERN_LOAD(chafa, config_set_cell_geometry, "chafa_canvas_config_set_cell_geometry")
    LECTERN_LOAD(chafa, config_set_canvas_mode, "chafa_canvas_config_set_canvas_mode")
    LECTERN_LOAD(chafa, config_set_pixel_mode, "chafa_canvas_config_set_pixel_mode")
    LECTERN_LOAD(chafa, config_set_dither_mode, "chafa_canvas_config_set_dither_mode")
    LECTERN_LOAD(chafa, config_set_optimizations, "chafa_canvas_config_set_optimizations")
    LECTERN_LOAD(chafa, config_set_symbol_map, "chafa_canvas_config_set_symbol_map")
    LECTERN_LOAD(chafa, symbol_map_new, "chafa_symbol_map_new")
    LECTERN_LOAD(chafa, symbol_map_unref, "chafa_symbol_map_unref")
    LECTERN_LOAD(chafa, symbol_map_add_by_tags, "chafa_symbol_map_add_by_tags")
    LECTERN_LOAD(chafa, canvas_new, "chafa_canvas_new")
    LECTERN_LOAD(chafa, canvas_unref, "chafa_canvas_unref")
    LECTERN_LOAD(chafa, canvas_draw_all_pixels, "chafa_canvas_draw_all_pixels")
    LECTERN_LOAD(chafa, canvas_print, "chafa_canvas_print")
    LECTERN_LOAD(chafa, term_db_get_default, "chafa_term_db_get_default")
    LECTERN_LOAD(chafa, term_db_get_fallback_info, "chafa_term_db_get_fallback_info")
    LECTERN_LOAD(chafa, term_info_unref, "chafa_term_info_unref")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

/// Connects the `size-prepared` signal of `loader` (emitted once the image's size is known,
/// before its pixels are decoded).
static inline void lectern_pixbuf_loader_on_size_prepared(lectern_pixbuf_loader *loader, lectern_size_prepared_handler handler, void *context) {
    lectern_pictures()->g_signal_connect_data(loader, "size-prepared", (void *)handler, context, NULL, 0);
}

#ifdef LECTERN_PICTURES_ABI_CHECK
#include <chafa.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#define LECTERN_SAME_VALUE(name) _Static_assert((long)LECTERN_##name == (long)name, #name);
_Static_assert(sizeof(lectern_pictures_gerror) == sizeof(GError), "GError");
_Static_assert(offsetof(lectern_gstring, len) == offsetof(GString, len), "GString.len");
_Static_assert(offsetof(lectern_gstring, str) == offsetof(GString, str), "GString.str");
LECTERN_SAME_VALUE(CHAFA_CANVAS_MODE_TRUECOLOR)
LECTERN_SAME_VALUE(CHAFA_CANVAS_MODE_INDEXED_256)
LECTERN_SAME_VALUE(CHAFA_CANVAS_MODE_INDEXED_16)
LECTERN_SAME_VALUE(CHAFA_CANVAS_MODE_FGBG)
LECTERN_SAME_VALUE(CHAFA_PIXEL_MODE_SYMBOLS)
LECTERN_SAME_VALUE(CHAFA_PIXEL_MODE_SIXELS)
LECTERN_SAME_VALUE(CHAFA_PIXEL_MODE_KITTY)
LECTERN_SAME_VALUE(CHAFA_PIXEL_MODE_ITERM2)
LECTERN_SAME_VALUE(CHAFA_PIXEL_RGBA8_PREMULTIPLIED)
LECTERN_SAME_VALUE(CHAFA_PIXEL_BGRA8_PREMULTIPLIED)
LECTERN_SAME_VALUE(CHAFA_PIXEL_RGBA8_UNASSOCIATED)
LECTERN_SAME_VALUE(CHAFA_PIXEL_RGB8)
LECTERN_SAME_VALUE(CHAFA_OPTIMIZATION_REUSE_ATTRIBUTES)
LECTERN_SAME_VALUE(CHAFA_DITHER_MODE_NONE)
LECTERN_SAME_VALUE(CHAFA_DITHER_MODE_ORDERED)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_SPACE)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_SOLID)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_BLOCK)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_QUAD)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_HHALF)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_VHALF)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_BRAILLE)
LECTERN_SAME_VALUE(CHAFA_SYMBOL_TAG_SEXTANT)
_Static_assert(sizeof(gboolean) == sizeof(int) && sizeof(gsize) == sizeof(size_t) && sizeof(gulong) == sizeof(unsigned long), "scalar types");
#endif
#endif
