#ifndef LECTERN_POPPLER_SHIM_H
#define LECTERN_POPPLER_SHIM_H
#include <glib.h>
#include <glib-object.h>
#include <poppler.h>

// Swift cannot see macros, and reads C unions awkwardly: small functions give it what it needs.

/// `POPPLER_ERROR` is a macro around this function.
static inline GQuark lectern_poppler_error_domain(void) { return poppler_error_quark(); }

/// The `POPPLER_ERROR_*` codes, which Swift imports as an enum type it cannot compare to `gint`.
static inline gint lectern_poppler_error_encrypted(void) { return POPPLER_ERROR_ENCRYPTED; }
static inline gint lectern_poppler_error_open_file(void) { return POPPLER_ERROR_OPEN_FILE; }

static inline void lectern_g_free(gpointer pointer) { g_free(pointer); }
static inline void lectern_g_object_unref(gpointer object) { g_object_unref(object); }
static inline void lectern_g_error_free(GError *error) { g_error_free(error); }

/// The kind of an outline action (`PopplerAction` is a union tagged by its first member).
static inline PopplerActionType lectern_action_type(const PopplerAction *action) { return action->type; }
static inline const gchar *lectern_action_title(const PopplerAction *action) { return action->any.title; }
/// The destination of a `POPPLER_ACTION_GOTO_DEST` action, or NULL.
static inline PopplerDest *lectern_action_goto_dest(const PopplerAction *action) {
    return action->type == POPPLER_ACTION_GOTO_DEST ? action->goto_dest.dest : NULL;
}
/// The URI of a `POPPLER_ACTION_URI` action, or NULL.
static inline const gchar *lectern_action_uri(const PopplerAction *action) {
    return action->type == POPPLER_ACTION_URI ? action->uri.uri : NULL;
}
#endif
