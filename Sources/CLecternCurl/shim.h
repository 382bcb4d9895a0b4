#ifndef LECTERN_CURL_SHIM_H
#define LECTERN_CURL_SHIM_H
#include <curl/curl.h>
// curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so give each
// argument type its own function.
static inline CURLcode lectern_curl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
static inline CURLcode lectern_curl_set_slist(CURL *c, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(c, o, v); }
typedef size_t (*lectern_curl_write_fn)(char *, size_t, size_t, void *);
static inline CURLcode lectern_curl_set_write_function(CURL *c, CURLoption o, lectern_curl_write_fn f) { return curl_easy_setopt(c, o, f); }
typedef int (*lectern_curl_progress_fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
static inline CURLcode lectern_curl_set_progress_function(CURL *c, lectern_curl_progress_fn f) { return curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode lectern_curl_get_long(CURL *c, CURLINFO i, long *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode lectern_curl_get_off_t(CURL *c, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(c, i, v); }
static inline CURLcode lectern_curl_get_string(CURL *c, CURLINFO i, char **v) { return curl_easy_getinfo(c, i, v); }
#endif
