#ifndef LECTERN_SPEECHD_SHIM_H
#define LECTERN_SPEECHD_SHIM_H
// speech-dispatcher's client library (libspeechd), loaded on first use with dlopen rather than
// linked: linked, it would come (with its glib) into every `lectern` process, while most never
// read aloud, and a system without speech-dispatcher could not start lectern at all. Only the
// headers (libspeechd-dev) are needed to build; every function is called through the table
// below, so calling one of the header's functions directly fails at link time.
#include <dlfcn.h>
#include <speech-dispatcher/libspeechd.h>

typedef struct {
    int loaded;
    SPDConnectionAddress *(*get_default_address)(char **);
    void (*address_free)(SPDConnectionAddress *);
    SPDConnection *(*open2)(const char *, const char *, const char *, SPDConnectionMode, SPDConnectionAddress *, int, char **);
    int (*get_client_id)(SPDConnection *);
    void (*close)(SPDConnection *);
    int (*say)(SPDConnection *, SPDPriority, const char *);
    int (*cancel)(SPDConnection *);
    int (*pause)(SPDConnection *);
    int (*resume)(SPDConnection *);
    int (*set_data_mode)(SPDConnection *, SPDDataMode);
    int (*set_notification_on)(SPDConnection *, SPDNotification);
    int (*set_voice_rate)(SPDConnection *, signed int);
    int (*set_language)(SPDConnection *, const char *);
    int (*set_synthesis_voice)(SPDConnection *, const char *);
} lectern_speechd_api;

// One table for the whole program (a `static` would give each Swift file its own copy); the
// weak definition is merged into one by the linker.
__attribute__((weak)) lectern_speechd_api lectern_speechd_api_table = {0};

static inline lectern_speechd_api *lectern_speechd(void) {
    return &lectern_speechd_api_table;
}

/// Loads libspeechd once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_speechd_load(void) {
    lectern_speechd_api *api = lectern_speechd();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libspeechd.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_SPD(field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_SPD(get_default_address, "spd_get_default_address")
    LECTERN_SPD(address_free, "SPDConnectionAddress__free")
    LECTERN_SPD(open2, "spd_open2")
    LECTERN_SPD(get_client_id, "spd_get_client_id")
    LECTERN_SPD(close, "spd_close")
    LECTERN_SPD(say, "spd_say")
    LECTERN_SPD(cancel, "spd_cancel")
    LECTERN_SPD(pause, "spd_pause")
    LECTERN_SPD(resume, "spd_resume")
    LECTERN_SPD(set_data_mode, "spd_set_data_mode")
    LECTERN_SPD(set_notification_on, "spd_set_notification_on")
    LECTERN_SPD(set_voice_rate, "spd_set_voice_rate")
    LECTERN_SPD(set_language, "spd_set_language")
    LECTERN_SPD(set_synthesis_voice, "spd_set_synthesis_voice")
#undef LECTERN_SPD
    api->loaded = 1;
    return 1;
}

#endif
