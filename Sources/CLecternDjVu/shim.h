#ifndef LECTERN_DJVU_SHIM_H
#define LECTERN_DJVU_SHIM_H
// djvulibre's document API (ddjvuapi) is asynchronous: every decoding step posts messages to
// the context, and data for a document opened from memory is handed over when a "new stream"
// message asks for it. These helpers run that loop synchronously, so that the Swift side only
// sees calls that return a result or an error. Callers serialise every call (LibDjVu's lock).
//
// djvulibre is loaded on first use with dlopen rather than linked, as poppler-glib is: linked,
// it brings libdjvulibre and libjpeg (with their C++ static initialisers) into every `lectern`
// process, for all the sessions that never open a DjVu document. Its headers are in the
// default include path (/usr/include/libdjvu), so the types and the inline miniexp accessors
// (consp, car, cdr, symbolp: tag tests on the pointer) come from them; every function of the
// library is called through the table below. Calling one of the header's functions directly
// fails at link time (nothing links djvulibre), which keeps this rule from being broken.
#include <dlfcn.h>
#include <libdjvu/ddjvuapi.h>
#include <libdjvu/miniexp.h>
#include <string.h>

typedef struct {
    int loaded;
    ddjvu_context_t *(*context_create)(const char *);
    void (*context_release)(ddjvu_context_t *);
    ddjvu_message_t *(*message_wait)(ddjvu_context_t *);
    ddjvu_message_t *(*message_peek)(ddjvu_context_t *);
    void (*message_pop)(ddjvu_context_t *);
    void (*stream_write)(ddjvu_document_t *, int, const char *, unsigned long);
    void (*stream_close)(ddjvu_document_t *, int, int);
    ddjvu_document_t *(*document_create)(ddjvu_context_t *, const char *, int);
    ddjvu_document_t *(*document_create_by_filename_utf8)(ddjvu_context_t *, const char *, int);
    ddjvu_job_t *(*document_job)(ddjvu_document_t *);
    ddjvu_job_t *(*page_job)(ddjvu_page_t *);
    ddjvu_status_t (*job_status)(ddjvu_job_t *);
    void (*job_release)(ddjvu_job_t *);
    ddjvu_document_type_t (*document_get_type)(ddjvu_document_t *);
    int (*document_get_pagenum)(ddjvu_document_t *);
    int (*document_get_filenum)(ddjvu_document_t *);
    ddjvu_status_t (*document_get_pageinfo_imp)(ddjvu_document_t *, int, ddjvu_pageinfo_t *, unsigned int);
    ddjvu_status_t (*document_get_fileinfo_imp)(ddjvu_document_t *, int, ddjvu_fileinfo_t *, unsigned int);
    ddjvu_page_t *(*page_create_by_pageno)(ddjvu_document_t *, int);
    ddjvu_format_t *(*format_create)(ddjvu_format_style_t, int, unsigned int *);
    void (*format_set_row_order)(ddjvu_format_t *, int);
    void (*format_set_y_direction)(ddjvu_format_t *, int);
    void (*format_release)(ddjvu_format_t *);
    int (*page_render)(ddjvu_page_t *, const ddjvu_render_mode_t, const ddjvu_rect_t *, const ddjvu_rect_t *,
                       const ddjvu_format_t *, unsigned long, char *);
    miniexp_t (*document_get_pagetext)(ddjvu_document_t *, int, const char *);
    miniexp_t (*document_get_outline)(ddjvu_document_t *);
    miniexp_t (*document_get_anno)(ddjvu_document_t *, int);
    void (*miniexp_release)(ddjvu_document_t *, miniexp_t);
    const char *(*miniexp_to_name)(miniexp_t);
    int (*miniexp_stringp)(miniexp_t);
    size_t (*miniexp_to_lstr)(miniexp_t, const char **);
} lectern_djvu_api;

// One table for the whole program (see CLecternPoppler's shim: a `static` would give each
// Swift file its own copy); the weak definition is merged into one by the linker.
__attribute__((weak)) lectern_djvu_api lectern_djvu_api_table = {0};

static inline lectern_djvu_api *lectern_djvu(void) {
    return &lectern_djvu_api_table;
}

/// Loads djvulibre once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_djvu_load(void) {
    lectern_djvu_api *api = lectern_djvu();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libdjvulibre.so.21", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libdjvulibre.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_LOAD(field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_LOAD(context_create, "ddjvu_context_create")
    LECTERN_LOAD(context_release, "ddjvu_context_release")
    LECTERN_LOAD(message_wait, "ddjvu_message_wait")
    LECTERN_LOAD(message_peek, "ddjvu_message_peek")
    LECTERN_LOAD(message_pop, "ddjvu_message_pop")
    LECTERN_LOAD(stream_write, "ddjvu_stream_write")
    LECTERN_LOAD(stream_close, "ddjvu_stream_close")
    LECTERN_LOAD(document_create, "ddjvu_document_create")
    LECTERN_LOAD(document_create_by_filename_utf8, "ddjvu_document_create_by_filename_utf8")
    LECTERN_LOAD(document_job, "ddjvu_document_job")
    LECTERN_LOAD(page_job, "ddjvu_page_job")
    LECTERN_LOAD(job_status, "ddjvu_job_status")
    LECTERN_LOAD(job_release, "ddjvu_job_release")
    LECTERN_LOAD(document_get_type, "ddjvu_document_get_type")
    LECTERN_LOAD(document_get_pagenum, "ddjvu_document_get_pagenum")
    LECTERN_LOAD(document_get_filenum, "ddjvu_document_get_filenum")
    LECTERN_LOAD(document_get_pageinfo_imp, "ddjvu_document_get_pageinfo_imp")
    LECTERN_LOAD(document_get_fileinfo_imp, "ddjvu_document_get_fileinfo_imp")
    LECTERN_LOAD(page_create_by_pageno, "ddjvu_page_create_by_pageno")
    LECTERN_LOAD(format_create, "ddjvu_format_create")
    LECTERN_LOAD(format_set_row_order, "ddjvu_format_set_row_order")
    LECTERN_LOAD(format_set_y_direction, "ddjvu_format_set_y_direction")
    LECTERN_LOAD(format_release, "ddjvu_format_release")
    LECTERN_LOAD(page_render, "ddjvu_page_render")
    LECTERN_LOAD(document_get_pagetext, "ddjvu_document_get_pagetext")
    LECTERN_LOAD(document_get_outline, "ddjvu_document_get_outline")
    LECTERN_LOAD(document_get_anno, "ddjvu_document_get_anno")
    LECTERN_LOAD(miniexp_release, "ddjvu_miniexp_release")
    LECTERN_LOAD(miniexp_to_name, "miniexp_to_name")
    LECTERN_LOAD(miniexp_stringp, "miniexp_stringp")
    LECTERN_LOAD(miniexp_to_lstr, "miniexp_to_lstr")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

/// What the message loop needs and what it reports: the bytes of a document opened from
/// memory (NULL for a file), and the last error djvulibre posted.
typedef struct lectern_djvu_pump_state {
    const unsigned char *data;
    size_t length;
    char error[512];
} lectern_djvu_pump_state;

/// Handles every pending message of `context`, after waiting for one when `wait` is set:
/// errors are remembered, the main stream of a memory document gets its bytes, any other
/// stream (the pages of an indirect document, which memory cannot provide) is refused.
static inline void lectern_djvu_pump(ddjvu_context_t *context, int wait, lectern_djvu_pump_state *state) {
    if (wait) lectern_djvu()->message_wait(context);
    const ddjvu_message_t *message;
    while ((message = lectern_djvu()->message_peek(context))) {
        switch (message->m_any.tag) {
        case DDJVU_ERROR:
            if (message->m_error.message) {
                strncpy(state->error, message->m_error.message, sizeof state->error - 1);
                state->error[sizeof state->error - 1] = 0;
            }
            break;
        case DDJVU_NEWSTREAM:
            if (state->data && message->m_newstream.streamid == 0) {
                lectern_djvu()->stream_write(message->m_any.document, 0, (const char *)state->data, (unsigned long)state->length);
                lectern_djvu()->stream_close(message->m_any.document, 0, 0);
            } else {
                lectern_djvu()->stream_close(message->m_any.document, message->m_newstream.streamid, 1);
            }
            break;
        default:
            break;
        }
        lectern_djvu()->message_pop(context);
    }
}

/// Opens a document from a file (`data` NULL in `state`) or from the bytes of `state`, and
/// waits until its directory is decoded; NULL with `state->error` set when it cannot be read.
static inline ddjvu_document_t *lectern_djvu_open(ddjvu_context_t *context, const char *path, lectern_djvu_pump_state *state) {
    ddjvu_document_t *document = state->data
        ? lectern_djvu()->document_create(context, "memory:document.djvu", 0)
        : lectern_djvu()->document_create_by_filename_utf8(context, path, 0);
    if (!document) return NULL;
    lectern_djvu_pump(context, 0, state);
    while (lectern_djvu()->job_status(lectern_djvu()->document_job(document)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (lectern_djvu()->job_status(lectern_djvu()->document_job(document)) != DDJVU_JOB_OK) {
        if (!state->error[0]) strcpy(state->error, "the document cannot be decoded");
        lectern_djvu()->job_release(lectern_djvu()->document_job(document));
        return NULL;
    }
    return document;
}

/// The size and resolution of page `index`, read from its INFO chunk without decoding the
/// page; 0 when it cannot be read.
static inline int lectern_djvu_page_info(ddjvu_context_t *context, ddjvu_document_t *document, int index,
                                         int *width, int *height, int *dpi, lectern_djvu_pump_state *state) {
    ddjvu_pageinfo_t info;
    ddjvu_status_t status;
    while ((status = lectern_djvu()->document_get_pageinfo_imp(document, index, &info, sizeof info)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (status != DDJVU_JOB_OK) return 0;
    int quarterTurn = info.rotation == 1 || info.rotation == 3;
    *width = quarterTurn ? info.height : info.width;
    *height = quarterTurn ? info.width : info.height;
    *dpi = info.dpi;
    return 1;
}

/// Draws page `index` into `buffer` (`height` rows of `row_size` bytes, RGB, top row first),
/// scaled to `width` × `height` pixels; 0 when the page cannot be decoded. The buffer is
/// painted white first: a page with nothing to draw stays blank.
static inline int lectern_djvu_render(ddjvu_context_t *context, ddjvu_document_t *document, int index, int width, int height,
                                      unsigned char *buffer, unsigned long row_size, lectern_djvu_pump_state *state) {
    ddjvu_page_t *page = lectern_djvu()->page_create_by_pageno(document, index);
    if (!page) return 0;
    while (lectern_djvu()->job_status(lectern_djvu()->page_job(page)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (lectern_djvu()->job_status(lectern_djvu()->page_job(page)) != DDJVU_JOB_OK) { lectern_djvu()->job_release(lectern_djvu()->page_job(page)); return 0; }
    memset(buffer, 0xff, row_size * (unsigned long)height);
    ddjvu_format_t *format = lectern_djvu()->format_create(DDJVU_FORMAT_RGB24, 0, NULL);
    if (!format) { lectern_djvu()->job_release(lectern_djvu()->page_job(page)); return 0; }
    lectern_djvu()->format_set_row_order(format, 1);
    lectern_djvu()->format_set_y_direction(format, 1);
    ddjvu_rect_t rect = { 0, 0, (unsigned int)width, (unsigned int)height };
    lectern_djvu()->page_render(page, DDJVU_RENDER_COLOR, &rect, &rect, format, row_size, (char *)buffer);
    lectern_djvu()->format_release(format);
    lectern_djvu()->job_release(lectern_djvu()->page_job(page));
    return 1;
}

/// The hidden text of page `index` down to lines (`djvused`'s print-txt form), the outline
/// (`print-outline`), or the document's annotations (`print-ant`); nil (an empty list) when
/// there are none. Release each with `lectern_djvu_miniexp_release`.
static inline miniexp_t lectern_djvu_page_text(ddjvu_context_t *context, ddjvu_document_t *document, int index, lectern_djvu_pump_state *state) {
    miniexp_t text;
    while ((text = lectern_djvu()->document_get_pagetext(document, index, "line")) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return text;
}
static inline miniexp_t lectern_djvu_outline(ddjvu_context_t *context, ddjvu_document_t *document, lectern_djvu_pump_state *state) {
    miniexp_t outline;
    while ((outline = lectern_djvu()->document_get_outline(document)) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return outline;
}
static inline miniexp_t lectern_djvu_annotations(ddjvu_context_t *context, ddjvu_document_t *document, lectern_djvu_pump_state *state) {
    miniexp_t annotations;
    while ((annotations = lectern_djvu()->document_get_anno(document, 1)) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return annotations;
}

/// The kind (`'P'` a page), page number, id and title of component file `file` (what an
/// outline's `#name` may point at); 0 when it cannot be read. Strings live as long as the document.
static inline int lectern_djvu_file_info(ddjvu_context_t *context, ddjvu_document_t *document, int file, char *kind, int *page,
                                         const char **identifier, const char **title, lectern_djvu_pump_state *state) {
    ddjvu_fileinfo_t info;
    ddjvu_status_t status;
    while ((status = lectern_djvu()->document_get_fileinfo_imp(document, file, &info, sizeof info)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (status != DDJVU_JOB_OK) return 0;
    *kind = info.type;
    *page = info.pageno;
    *identifier = info.id;
    *title = info.title;
    return 1;
}

// One call each, for the Swift side.
static inline void lectern_djvu_document_release(ddjvu_document_t *document) { lectern_djvu()->job_release(lectern_djvu()->document_job(document)); }
static inline ddjvu_context_t *lectern_djvu_context_create(const char *name) { return lectern_djvu()->context_create(name); }
static inline void lectern_djvu_context_release(ddjvu_context_t *context) { lectern_djvu()->context_release(context); }
static inline int lectern_djvu_document_is_indirect(ddjvu_document_t *document) { return lectern_djvu()->document_get_type(document) == DDJVU_DOCTYPE_INDIRECT; }
static inline int lectern_djvu_document_get_pagenum(ddjvu_document_t *document) { return lectern_djvu()->document_get_pagenum(document); }
static inline int lectern_djvu_document_get_filenum(ddjvu_document_t *document) { return lectern_djvu()->document_get_filenum(document); }
static inline void lectern_djvu_miniexp_release(ddjvu_document_t *document, miniexp_t expression) { lectern_djvu()->miniexp_release(document, expression); }
static inline const char *lectern_miniexp_to_name(miniexp_t expression) { return lectern_djvu()->miniexp_to_name(expression); }
static inline int lectern_miniexp_stringp(miniexp_t expression) { return lectern_djvu()->miniexp_stringp(expression); }
static inline size_t lectern_miniexp_to_lstr(miniexp_t expression, const char **string) { return lectern_djvu()->miniexp_to_lstr(expression, string); }
static inline int lectern_miniexp_is_nil(miniexp_t expression) { return expression == miniexp_nil; }
#ifdef LECTERN_DJVU_ABI_CHECK
// Every field has the type of the function it is loaded from (`cc -fsyntax-only -Werror
// -DLECTERN_DJVU_ABI_CHECK -x c shim.h`; a test runs it).
static inline void lectern_djvu_abi_check(lectern_djvu_api *api) {
    api->context_create = ddjvu_context_create;
    api->context_release = ddjvu_context_release;
    api->message_wait = ddjvu_message_wait;
    api->message_peek = ddjvu_message_peek;
    api->message_pop = ddjvu_message_pop;
    api->stream_write = ddjvu_stream_write;
    api->stream_close = ddjvu_stream_close;
    api->document_create = ddjvu_document_create;
    api->document_create_by_filename_utf8 = ddjvu_document_create_by_filename_utf8;
    api->document_job = ddjvu_document_job;
    api->page_job = ddjvu_page_job;
    api->job_status = ddjvu_job_status;
    api->job_release = ddjvu_job_release;
    api->document_get_type = ddjvu_document_get_type;
    api->document_get_pagenum = ddjvu_document_get_pagenum;
    api->document_get_filenum = ddjvu_document_get_filenum;
    api->document_get_pageinfo_imp = ddjvu_document_get_pageinfo_imp;
    api->document_get_fileinfo_imp = ddjvu_document_get_fileinfo_imp;
    api->page_create_by_pageno = ddjvu_page_create_by_pageno;
    api->format_create = ddjvu_format_create;
    api->format_set_row_order = ddjvu_format_set_row_order;
    api->format_set_y_direction = ddjvu_format_set_y_direction;
    api->format_release = ddjvu_format_release;
    api->page_render = ddjvu_page_render;
    api->document_get_pagetext = ddjvu_document_get_pagetext;
    api->document_get_outline = ddjvu_document_get_outline;
    api->document_get_anno = ddjvu_document_get_anno;
    api->miniexp_release = ddjvu_miniexp_release;
    api->miniexp_to_name = miniexp_to_name;
    api->miniexp_stringp = miniexp_stringp;
    api->miniexp_to_lstr = miniexp_to_lstr;
}
#endif
#endif
