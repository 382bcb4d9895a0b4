#ifndef LECTERN_MPV_SHIM_H
#define LECTERN_MPV_SHIM_H
#include <mpv/client.h>
#include <mpv/stream_cb.h>
#include <dlfcn.h>
#include <locale.h>
#include <stddef.h>

// libmpv is loaded on first use with dlopen rather than linked: it brings FFmpeg, the audio
// back ends and their dependencies (tens of megabytes mapped, hundreds of libraries), which a
// session that only reads text never needs — and `lectern` must run where it is not installed.

typedef struct {
    int loaded;
    unsigned long (*client_api_version)(void);
    mpv_handle *(*create)(void);
    int (*initialize)(mpv_handle *);
    void (*terminate_destroy)(mpv_handle *);
    int (*set_option_string)(mpv_handle *, const char *, const char *);
    int (*set_property)(mpv_handle *, const char *, mpv_format, void *);
    int (*set_property_async)(mpv_handle *, uint64_t, const char *, mpv_format, void *);
    int (*get_property)(mpv_handle *, const char *, mpv_format, void *);
    char *(*get_property_string)(mpv_handle *, const char *);
    int (*command_async)(mpv_handle *, uint64_t, const char **);
    int (*observe_property)(mpv_handle *, uint64_t, const char *, mpv_format);
    mpv_event *(*wait_event)(mpv_handle *, double);
    void (*wakeup)(mpv_handle *);
    void (*set_wakeup_callback)(mpv_handle *, void (*)(void *), void *);
    const char *(*error_string)(int);
    void (*free)(void *);
    int (*request_log_messages)(mpv_handle *, const char *);
    int (*stream_cb_add_ro)(mpv_handle *, const char *, void *, mpv_stream_cb_open_ro_fn);
} lectern_mpv_api;

// One table for the whole program: a `static` inside an inline function would give each Swift
// file its own copy (each is compiled on its own), and only the one that called
// lectern_mpv_load would be filled. A weak definition is merged into one by the linker.
__attribute__((weak)) lectern_mpv_api lectern_mpv_api_table = {0};

static inline lectern_mpv_api *lectern_mpv(void) {
    return &lectern_mpv_api_table;
}

/// Loads libmpv once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_mpv_load(void) {
    lectern_mpv_api *api = lectern_mpv();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libmpv.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libmpv.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libmpv.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_MPV_SYM(field, name) api->field = (__typeof__(api->field))dlsym(handle, name)
    LECTERN_MPV_SYM(client_api_version, "mpv_client_api_version");
    LECTERN_MPV_SYM(create, "mpv_create");
    LECTERN_MPV_SYM(initialize, "mpv_initialize");
    LECTERN_MPV_SYM(terminate_destroy, "mpv_terminate_destroy");
    LECTERN_MPV_SYM(set_option_string, "mpv_set_option_string");
    LECTERN_MPV_SYM(set_property, "mpv_set_property");
    LECTERN_MPV_SYM(set_property_async, "mpv_set_property_async");
    LECTERN_MPV_SYM(get_property, "mpv_get_property");
    LECTERN_MPV_SYM(get_property_string, "mpv_get_property_string");
    LECTERN_MPV_SYM(command_async, "mpv_command_async");
    LECTERN_MPV_SYM(observe_property, "mpv_observe_property");
    LECTERN_MPV_SYM(wait_event, "mpv_wait_event");
    LECTERN_MPV_SYM(wakeup, "mpv_wakeup");
    LECTERN_MPV_SYM(set_wakeup_callback, "mpv_set_wakeup_callback");
    LECTERN_MPV_SYM(error_string, "mpv_error_string");
    LECTERN_MPV_SYM(free, "mpv_free");
    LECTERN_MPV_SYM(request_log_messages, "mpv_request_log_messages");
    LECTERN_MPV_SYM(stream_cb_add_ro, "mpv_stream_cb_add_ro");
#undef LECTERN_MPV_SYM
    if (!api->client_api_version || !api->create || !api->initialize || !api->terminate_destroy
        || !api->set_option_string || !api->set_property || !api->set_property_async || !api->get_property
        || !api->get_property_string || !api->command_async || !api->observe_property || !api->wait_event
        || !api->wakeup || !api->set_wakeup_callback || !api->error_string || !api->free
        || !api->request_log_messages || !api->stream_cb_add_ro) {
        api->loaded = -1;
        return 0;
    }
    api->loaded = 1;
    return 1;
}

/// A new mpv core. libmpv refuses to start unless LC_NUMERIC is "C" (it parses and prints
/// numbers with the C library); Lectern prints numbers itself, so the category is reset here.
static inline mpv_handle *lectern_mpv_create(void) {
    setlocale(LC_NUMERIC, "C");
    return lectern_mpv()->create();
}

static inline unsigned long lectern_mpv_client_api_version(void) { return lectern_mpv()->client_api_version(); }
static inline int lectern_mpv_initialize(mpv_handle *h) { return lectern_mpv()->initialize(h); }
static inline void lectern_mpv_terminate_destroy(mpv_handle *h) { lectern_mpv()->terminate_destroy(h); }
static inline int lectern_mpv_set_option_string(mpv_handle *h, const char *name, const char *value) { return lectern_mpv()->set_option_string(h, name, value); }
static inline int lectern_mpv_set_property_double(mpv_handle *h, const char *name, double value) { return lectern_mpv()->set_property(h, name, MPV_FORMAT_DOUBLE, &value); }
static inline int lectern_mpv_set_property_string(mpv_handle *h, const char *name, const char *value) { return lectern_mpv()->set_property(h, name, MPV_FORMAT_STRING, &value); }
static inline int lectern_mpv_set_property_flag_async(mpv_handle *h, uint64_t tag, const char *name, int value) { return lectern_mpv()->set_property_async(h, tag, name, MPV_FORMAT_FLAG, &value); }
static inline int lectern_mpv_set_property_double_async(mpv_handle *h, uint64_t tag, const char *name, double value) { return lectern_mpv()->set_property_async(h, tag, name, MPV_FORMAT_DOUBLE, &value); }
static inline int lectern_mpv_set_property_string_async(mpv_handle *h, uint64_t tag, const char *name, const char *value) { return lectern_mpv()->set_property_async(h, tag, name, MPV_FORMAT_STRING, &value); }
static inline int lectern_mpv_get_property_double(mpv_handle *h, const char *name, double *value) { return lectern_mpv()->get_property(h, name, MPV_FORMAT_DOUBLE, value); }
static inline int lectern_mpv_get_property_flag(mpv_handle *h, const char *name, int *value) { return lectern_mpv()->get_property(h, name, MPV_FORMAT_FLAG, value); }
static inline char *lectern_mpv_get_property_string(mpv_handle *h, const char *name) { return lectern_mpv()->get_property_string(h, name); }
static inline int lectern_mpv_command_async(mpv_handle *h, uint64_t tag, const char **args) { return lectern_mpv()->command_async(h, tag, args); }
static inline int lectern_mpv_observe_property(mpv_handle *h, uint64_t tag, const char *name, mpv_format format) { return lectern_mpv()->observe_property(h, tag, name, format); }
static inline mpv_event *lectern_mpv_wait_event(mpv_handle *h, double timeout) { return lectern_mpv()->wait_event(h, timeout); }
static inline void lectern_mpv_wakeup(mpv_handle *h) { lectern_mpv()->wakeup(h); }
static inline void lectern_mpv_set_wakeup_callback(mpv_handle *h, void (*cb)(void *), void *d) { lectern_mpv()->set_wakeup_callback(h, cb, d); }
static inline const char *lectern_mpv_error_string(int error) { return lectern_mpv()->error_string(error); }
static inline void lectern_mpv_free(void *data) { lectern_mpv()->free(data); }
static inline int lectern_mpv_request_log_messages(mpv_handle *h, const char *level) { return lectern_mpv()->request_log_messages(h, level); }
static inline int lectern_mpv_stream_cb_add_ro(mpv_handle *h, const char *protocol, void *user_data, mpv_stream_cb_open_ro_fn open) { return lectern_mpv()->stream_cb_add_ro(h, protocol, user_data, open); }
#endif
