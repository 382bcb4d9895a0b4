#ifndef LECTERN_ESPEAK_SHIM_H
#define LECTERN_ESPEAK_SHIM_H
#include <espeak-ng/speak_lib.h>
#include <dlfcn.h>
#include <stddef.h>

// libespeak-ng is loaded on first use with dlopen rather than linked: only reading aloud needs
// it (with its 20 MB of voice data), and `lectern` must start where it is not installed — then
// reading aloud says which Debian packages to install instead of the program failing to start.

typedef struct {
    int loaded;
    int (*initialize)(espeak_AUDIO_OUTPUT, int, const char *, int);
    void (*set_synth_callback)(t_espeak_callback *);
    espeak_ERROR (*synth)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int,
                          unsigned int *, void *);
    espeak_ERROR (*set_parameter)(espeak_PARAMETER, int, int);
    espeak_ERROR (*set_voice_by_name)(const char *);
    espeak_ERROR (*set_voice_by_properties)(espeak_VOICE *);
    espeak_VOICE *(*get_current_voice)(void);
    const espeak_VOICE **(*list_voices)(espeak_VOICE *);
    espeak_ERROR (*terminate)(void);
    const char *(*info)(const char **);
} lectern_espeak_api;

// One table for the whole program (see CLecternMPV/shim.h for why it is a weak definition).
__attribute__((weak)) lectern_espeak_api lectern_espeak_api_table = {0};

static inline lectern_espeak_api *lectern_espeak(void) {
    return &lectern_espeak_api_table;
}

/// Loads libespeak-ng once from `library` (NULL: the system's); callers serialise the first call.
/// Returns 1 when every function is there.
static inline int lectern_espeak_load(const char *library) {
    lectern_espeak_api *api = lectern_espeak();
    if (api->loaded) return api->loaded > 0;
    void *handle = library ? dlopen(library, RTLD_NOW | RTLD_LOCAL) : dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle && !library) handle = dlopen("libespeak-ng.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_ESPEAK_SYM(field, name) api->field = (__typeof__(api->field))dlsym(handle, name)
    LECTERN_ESPEAK_SYM(initialize, "espeak_Initialize");
    LECTERN_ESPEAK_SYM(set_synth_callback, "espeak_SetSynthCallback");
    LECTERN_ESPEAK_SYM(synth, "espeak_Synth");
    LECTERN_ESPEAK_SYM(set_parameter, "espeak_SetParameter");
    LECTERN_ESPEAK_SYM(set_voice_by_name, "espeak_SetVoiceByName");
    LECTERN_ESPEAK_SYM(set_voice_by_properties, "espeak_SetVoiceByProperties");
    LECTERN_ESPEAK_SYM(get_current_voice, "espeak_GetCurrentVoice");
    LECTERN_ESPEAK_SYM(list_voices, "espeak_ListVoices");
    LECTERN_ESPEAK_SYM(terminate, "espeak_Terminate");
    LECTERN_ESPEAK_SYM(info, "espeak_Info");
#undef LECTERN_ESPEAK_SYM
    if (!api->initialize || !api->set_synth_callback || !api->synth || !api->set_parameter || !api->set_voice_by_name
        || !api->set_voice_by_properties || !api->get_current_voice || !api->list_voices || !api->terminate || !api->info) {
        api->loaded = -1;
        return 0;
    }
    api->loaded = 1;
    return 1;
}

static inline int lectern_espeak_initialize(const char *path) {
    // Synchronous: espeak_Synth returns once the text is synthesised, the audio and its events
    // handed to the callback on the calling thread. DONT_EXIT: without it a missing data folder
    // ends the whole process.
    return lectern_espeak()->initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, path, espeakINITIALIZE_DONT_EXIT);
}
static inline void lectern_espeak_set_synth_callback(t_espeak_callback *callback) { lectern_espeak()->set_synth_callback(callback); }
/// Synthesises UTF-32 text (wchar_t on Linux): event text positions are then code points.
static inline int lectern_espeak_synth_wide(const wchar_t *text, size_t bytes, void *user_data) {
    return lectern_espeak()->synth(text, bytes, 0, POS_CHARACTER, 0, espeakCHARS_WCHAR, NULL, user_data);
}
static inline int lectern_espeak_set_parameter(espeak_PARAMETER parameter, int value) { return lectern_espeak()->set_parameter(parameter, value, 0); }
static inline int lectern_espeak_set_voice_by_name(const char *name) { return lectern_espeak()->set_voice_by_name(name); }
static inline int lectern_espeak_set_voice_by_language(const char *language) {
    espeak_VOICE spec = {0};
    spec.languages = language;
    return lectern_espeak()->set_voice_by_properties(&spec);
}
static inline const char *lectern_espeak_current_voice_name(void) {
    espeak_VOICE *voice = lectern_espeak()->get_current_voice();
    return voice ? voice->name : NULL;
}
static inline const char *lectern_espeak_current_voice_identifier(void) {
    espeak_VOICE *voice = lectern_espeak()->get_current_voice();
    return voice ? voice->identifier : NULL;
}
static inline const espeak_VOICE **lectern_espeak_list_voices(void) { return lectern_espeak()->list_voices(NULL); }
static inline int lectern_espeak_terminate(void) { return lectern_espeak()->terminate(); }
static inline const char *lectern_espeak_version(void) { return lectern_espeak()->info(NULL); }
#endif
