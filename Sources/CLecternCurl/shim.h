#ifndef LECTERN_CURL_SHIM_H
#define LECTERN_CURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

// libcurl is loaded on first use with dlopen rather than linked: with its TLS, Kerberos and
// LDAP dependencies it costs several megabytes of resident memory at start-up, and most
// sessions (reading local books) never touch the network.

typedef struct {
    int loaded;
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} lectern_curl_api;

// One table for the whole program: a `static` inside an inline function would give each Swift
// file its own copy (each is compiled on its own), and only the one that loaded libcurl would be
// filled in. A weak definition is merged into one by the linker (as in the poppler shim).
__attribute__((weak)) lectern_curl_api lectern_curl_api_table = {0};

static inline lectern_curl_api *lectern_curl(void) {
    return &lectern_curl_api_table;
}

/// Loads libcurl once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_curl_load(void) {
    lectern_curl_api *api = lectern_curl();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
    api->global_init = (CURLcode (*)(long))dlsym(handle, "curl_global_init");
    api->easy_init = (CURL *(*)(void))dlsym(handle, "curl_easy_init");
    api->easy_cleanup = (void (*)(CURL *))dlsym(handle, "curl_easy_cleanup");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(handle, "curl_easy_setopt");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(handle, "curl_easy_getinfo");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(handle, "curl_easy_perform");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(handle, "curl_easy_strerror");
    api->slist_append = (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(handle, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(handle, "curl_slist_free_all");
    if (!api->global_init || !api->easy_init || !api->easy_cleanup || !api->easy_setopt || !api->easy_getinfo
        || !api->easy_perform || !api->easy_strerror || !api->slist_append || !api->slist_free_all) {
        api->loaded = -1;
        return 0;
    }
    api->global_init(CURL_GLOBAL_DEFAULT);
    api->loaded = 1;
    return 1;
}

static inline CURL *lectern_curl_easy_init(void) { return lectern_curl()->easy_init(); }
static inline void lectern_curl_easy_cleanup(CURL *c) { lectern_curl()->easy_cleanup(c); }
static inline CURLcode lectern_curl_easy_perform(CURL *c) { return lectern_curl()->easy_perform(c); }
static inline const char *lectern_curl_easy_strerror(CURLcode code) { return lectern_curl()->easy_strerror(code); }
static inline struct curl_slist *lectern_curl_slist_append(struct curl_slist *list, const char *s) { return lectern_curl()->slist_append(list, s); }
static inline void lectern_curl_slist_free_all(struct curl_slist *list) { lectern_curl()->slist_free_all(list); }

// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each
// argument type gets its own function.
static inline CURLcode lectern_curl_set_long(CURL *c, CURLoption o, long v) { return lectern_curl()->easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_string(CURL *c, CURLoption o, const char *v) { return lectern_curl()->easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_pointer(CURL *c, CURLoption o, void *v) { return lectern_curl()->easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_slist(CURL *c, CURLoption o, struct curl_slist *v) { return lectern_curl()->easy_setopt(c, o, v); }
typedef size_t (*lectern_curl_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode lectern_curl_set_write_function(CURL *c, CURLoption o, lectern_curl_write_fn f) { return lectern_curl()->easy_setopt(c, o, f); }
typedef int (*lectern_curl_progress_fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode lectern_curl_set_progress_function(CURL *c, lectern_curl_progress_fn f) { return lectern_curl()->easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }
typedef curl_socket_t (*lectern_curl_opensocket_fn)(void *, curlsocktype, struct curl_sockaddr *);
static inline CURLcode lectern_curl_set_opensocket_function(CURL *c, lectern_curl_opensocket_fn f) { return lectern_curl()->easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline CURLcode lectern_curl_get_long(CURL *c, CURLINFO i, long *v) { return lectern_curl()->easy_getinfo(c, i, v); }
static inline CURLcode lectern_curl_get_string(CURL *c, CURLINFO i, char **v) { return lectern_curl()->easy_getinfo(c, i, v); }
#endif
