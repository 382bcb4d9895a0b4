#ifndef LECTERN_DJVU_SHIM_H
#define LECTERN_DJVU_SHIM_H
// djvulibre's document API (ddjvuapi) is asynchronous: every decoding step posts messages to
// the context, and data for a document opened from memory is handed over when a "new stream"
// message asks for it. These helpers run that loop synchronously, so that the Swift side only
// sees calls that return a result or an error. Callers serialise every call (LibDjVu's lock).
#include <libdjvu/ddjvuapi.h>
#include <libdjvu/miniexp.h>
#include <string.h>

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
    if (wait) ddjvu_message_wait(context);
    const ddjvu_message_t *message;
    while ((message = ddjvu_message_peek(context))) {
        switch (message->m_any.tag) {
        case DDJVU_ERROR:
            if (message->m_error.message) {
                strncpy(state->error, message->m_error.message, sizeof state->error - 1);
                state->error[sizeof state->error - 1] = 0;
            }
            break;
        case DDJVU_NEWSTREAM:
            if (state->data && message->m_newstream.streamid == 0) {
                ddjvu_stream_write(message->m_any.document, 0, (const char *)state->data, (unsigned long)state->length);
                ddjvu_stream_close(message->m_any.document, 0, 0);
            } else {
                ddjvu_stream_close(message->m_any.document, message->m_newstream.streamid, 1);
            }
            break;
        default:
            break;
        }
        ddjvu_message_pop(context);
    }
}

/// Opens a document from a file (`data` NULL in `state`) or from the bytes of `state`, and
/// waits until its directory is decoded; NULL with `state->error` set when it cannot be read.
static inline ddjvu_document_t *lectern_djvu_open(ddjvu_context_t *context, const char *path, lectern_djvu_pump_state *state) {
    ddjvu_document_t *document = state->data
        ? ddjvu_document_create(context, "memory:document.djvu", 0)
        : ddjvu_document_create_by_filename_utf8(context, path, 0);
    if (!document) return NULL;
    lectern_djvu_pump(context, 0, state);
    while (ddjvu_document_decoding_status(document) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (ddjvu_document_decoding_status(document) != DDJVU_JOB_OK) {
        if (!state->error[0]) strcpy(state->error, "the document cannot be decoded");
        ddjvu_document_release(document);
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
    while ((status = ddjvu_document_get_pageinfo(document, index, &info)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
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
    ddjvu_page_t *page = ddjvu_page_create_by_pageno(document, index);
    if (!page) return 0;
    while (ddjvu_page_decoding_status(page) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (ddjvu_page_decoding_status(page) != DDJVU_JOB_OK) { ddjvu_page_release(page); return 0; }
    memset(buffer, 0xff, row_size * (unsigned long)height);
    ddjvu_format_t *format = ddjvu_format_create(DDJVU_FORMAT_RGB24, 0, NULL);
    if (!format) { ddjvu_page_release(page); return 0; }
    ddjvu_format_set_row_order(format, 1);
    ddjvu_format_set_y_direction(format, 1);
    ddjvu_rect_t rect = { 0, 0, (unsigned int)width, (unsigned int)height };
    ddjvu_page_render(page, DDJVU_RENDER_COLOR, &rect, &rect, format, row_size, (char *)buffer);
    ddjvu_format_release(format);
    ddjvu_page_release(page);
    return 1;
}

/// The hidden text of page `index` down to lines (`djvused`'s print-txt form), the outline
/// (`print-outline`), or the document's annotations (`print-ant`); nil (an empty list) when
/// there are none. Release each with `ddjvu_miniexp_release`.
static inline miniexp_t lectern_djvu_page_text(ddjvu_context_t *context, ddjvu_document_t *document, int index, lectern_djvu_pump_state *state) {
    miniexp_t text;
    while ((text = ddjvu_document_get_pagetext(document, index, "line")) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return text;
}
static inline miniexp_t lectern_djvu_outline(ddjvu_context_t *context, ddjvu_document_t *document, lectern_djvu_pump_state *state) {
    miniexp_t outline;
    while ((outline = ddjvu_document_get_outline(document)) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return outline;
}
static inline miniexp_t lectern_djvu_annotations(ddjvu_context_t *context, ddjvu_document_t *document, lectern_djvu_pump_state *state) {
    miniexp_t annotations;
    while ((annotations = ddjvu_document_get_anno(document, 1)) == miniexp_dummy) lectern_djvu_pump(context, 1, state);
    return annotations;
}

/// The kind (`'P'` a page), page number, id and title of component file `file` (what an
/// outline's `#name` may point at); 0 when it cannot be read. Strings live as long as the document.
static inline int lectern_djvu_file_info(ddjvu_context_t *context, ddjvu_document_t *document, int file, char *kind, int *page,
                                         const char **identifier, const char **title, lectern_djvu_pump_state *state) {
    ddjvu_fileinfo_t info;
    ddjvu_status_t status;
    while ((status = ddjvu_document_get_fileinfo(document, file, &info)) < DDJVU_JOB_OK) lectern_djvu_pump(context, 1, state);
    if (status != DDJVU_JOB_OK) return 0;
    *kind = info.type;
    *page = info.pageno;
    *identifier = info.id;
    *title = info.title;
    return 1;
}

static inline void lectern_djvu_document_release(ddjvu_document_t *document) { ddjvu_document_release(document); }
static inline int lectern_miniexp_is_nil(miniexp_t expression) { return expression == miniexp_nil; }
#endif
