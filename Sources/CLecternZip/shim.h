#ifndef LECTERN_ZIP_SHIM_H
#define LECTERN_ZIP_SHIM_H
// libzip is loaded on first use with dlopen rather than linked (#28): it needs libcrypto
// (1.5 MB resident) and libbz2, which `lectern --version`, the bookshelf and every command that
// reads no ZIP had in their process. The installed header supplies the types; every function
// is called through the table below, whose pointers take their types from the header's own
// declarations (__typeof__). Calling one of the header's functions directly fails at link time
// (nothing links libzip), which keeps this rule. Everything below the includes is written by
//   python3 Packaging/make-dlopen-shim.py zip zip.h libzip.so.4 NAME...
// with NAME the zip_* functions Sources/LibZip calls (as lectern_NAME); add one there.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <zip.h>

typedef struct {
    int loaded;
    __typeof__(zip_close) *zip_close;
    __typeof__(zip_dir_add) *zip_dir_add;
    __typeof__(zip_discard) *zip_discard;
    __typeof__(zip_error_code_zip) *zip_error_code_zip;
    __typeof__(zip_error_fini) *zip_error_fini;
    __typeof__(zip_error_init) *zip_error_init;
    __typeof__(zip_error_init_with_code) *zip_error_init_with_code;
    __typeof__(zip_error_set) *zip_error_set;
    __typeof__(zip_error_strerror) *zip_error_strerror;
    __typeof__(zip_error_to_data) *zip_error_to_data;
    __typeof__(zip_fclose) *zip_fclose;
    __typeof__(zip_file_add) *zip_file_add;
    __typeof__(zip_file_extra_field_get_by_id) *zip_file_extra_field_get_by_id;
    __typeof__(zip_file_get_error) *zip_file_get_error;
    __typeof__(zip_file_set_mtime) *zip_file_set_mtime;
    __typeof__(zip_fopen_index) *zip_fopen_index;
    __typeof__(zip_fread) *zip_fread;
    __typeof__(zip_fseek) *zip_fseek;
    __typeof__(zip_get_error) *zip_get_error;
    __typeof__(zip_get_name) *zip_get_name;
    __typeof__(zip_get_num_entries) *zip_get_num_entries;
    __typeof__(zip_open) *zip_open;
    __typeof__(zip_open_from_source) *zip_open_from_source;
    __typeof__(zip_set_default_password) *zip_set_default_password;
    __typeof__(zip_set_file_compression) *zip_set_file_compression;
    __typeof__(zip_source_buffer) *zip_source_buffer;
    __typeof__(zip_source_free) *zip_source_free;
    __typeof__(zip_source_function_create) *zip_source_function_create;
    __typeof__(zip_source_seek_compute_offset) *zip_source_seek_compute_offset;
    __typeof__(zip_source_zip) *zip_source_zip;
    __typeof__(zip_stat_index) *zip_stat_index;
    __typeof__(zip_stat_init) *zip_stat_init;
    __typeof__(zip_strerror) *zip_strerror;
} lectern_zip_api;

// One table and one flag for the whole program (a `static` would give each Swift file its own
// copy); the weak definitions are merged into one by the linker.
__attribute__((weak)) lectern_zip_api lectern_zip_api_table = {0};
__attribute__((weak)) pthread_once_t lectern_zip_once = PTHREAD_ONCE_INIT;

static inline void lectern_zip_load_once(void) {
    void *handle = dlopen("libzip.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_close = (__typeof__(lectern_zip_api_table.zip_close))dlsym(handle, "zip_close"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_dir_add = (__typeof__(lectern_zip_api_table.zip_dir_add))dlsym(handle, "zip_dir_add"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_discard = (__typeof__(lectern_zip_api_table.zip_discard))dlsym(handle, "zip_discard"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_code_zip = (__typeof__(lectern_zip_api_table.zip_error_code_zip))dlsym(handle, "zip_error_code_zip"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_fini = (__typeof__(lectern_zip_api_table.zip_error_fini))dlsym(handle, "zip_error_fini"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_init = (__typeof__(lectern_zip_api_table.zip_error_init))dlsym(handle, "zip_error_init"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_init_with_code = (__typeof__(lectern_zip_api_table.zip_error_init_with_code))dlsym(handle, "zip_error_init_with_code"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_set = (__typeof__(lectern_zip_api_table.zip_error_set))dlsym(handle, "zip_error_set"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_strerror = (__typeof__(lectern_zip_api_table.zip_error_strerror))dlsym(handle, "zip_error_strerror"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_error_to_data = (__typeof__(lectern_zip_api_table.zip_error_to_data))dlsym(handle, "zip_error_to_data"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_fclose = (__typeof__(lectern_zip_api_table.zip_fclose))dlsym(handle, "zip_fclose"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_file_add = (__typeof__(lectern_zip_api_table.zip_file_add))dlsym(handle, "zip_file_add"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_file_extra_field_get_by_id = (__typeof__(lectern_zip_api_table.zip_file_extra_field_get_by_id))dlsym(handle, "zip_file_extra_field_get_by_id"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_file_get_error = (__typeof__(lectern_zip_api_table.zip_file_get_error))dlsym(handle, "zip_file_get_error"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_file_set_mtime = (__typeof__(lectern_zip_api_table.zip_file_set_mtime))dlsym(handle, "zip_file_set_mtime"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_fopen_index = (__typeof__(lectern_zip_api_table.zip_fopen_index))dlsym(handle, "zip_fopen_index"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_fread = (__typeof__(lectern_zip_api_table.zip_fread))dlsym(handle, "zip_fread"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_fseek = (__typeof__(lectern_zip_api_table.zip_fseek))dlsym(handle, "zip_fseek"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_get_error = (__typeof__(lectern_zip_api_table.zip_get_error))dlsym(handle, "zip_get_error"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_get_name = (__typeof__(lectern_zip_api_table.zip_get_name))dlsym(handle, "zip_get_name"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_get_num_entries = (__typeof__(lectern_zip_api_table.zip_get_num_entries))dlsym(handle, "zip_get_num_entries"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_open = (__typeof__(lectern_zip_api_table.zip_open))dlsym(handle, "zip_open"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_open_from_source = (__typeof__(lectern_zip_api_table.zip_open_from_source))dlsym(handle, "zip_open_from_source"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_set_default_password = (__typeof__(lectern_zip_api_table.zip_set_default_password))dlsym(handle, "zip_set_default_password"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_set_file_compression = (__typeof__(lectern_zip_api_table.zip_set_file_compression))dlsym(handle, "zip_set_file_compression"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_source_buffer = (__typeof__(lectern_zip_api_table.zip_source_buffer))dlsym(handle, "zip_source_buffer"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_source_free = (__typeof__(lectern_zip_api_table.zip_source_free))dlsym(handle, "zip_source_free"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_source_function_create = (__typeof__(lectern_zip_api_table.zip_source_function_create))dlsym(handle, "zip_source_function_create"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_source_seek_compute_offset = (__typeof__(lectern_zip_api_table.zip_source_seek_compute_offset))dlsym(handle, "zip_source_seek_compute_offset"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_source_zip = (__typeof__(lectern_zip_api_table.zip_source_zip))dlsym(handle, "zip_source_zip"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_stat_index = (__typeof__(lectern_zip_api_table.zip_stat_index))dlsym(handle, "zip_stat_index"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_stat_init = (__typeof__(lectern_zip_api_table.zip_stat_init))dlsym(handle, "zip_stat_init"))) { lectern_zip_api_table.loaded = -1; return; }
    if (!(lectern_zip_api_table.zip_strerror = (__typeof__(lectern_zip_api_table.zip_strerror))dlsym(handle, "zip_strerror"))) { lectern_zip_api_table.loaded = -1; return; }
    lectern_zip_api_table.loaded = 1;
}

/// Loads the library once, from any thread; returns 1 when it is usable.
static inline int lectern_zip_load(void) {
    pthread_once(&lectern_zip_once, lectern_zip_load_once);
    return lectern_zip_api_table.loaded > 0;
}

/// The table, loaded; a library that cannot be loaded ends the program with its name (it is
/// a dependency of the package: the Swift side checks `lectern_zip_load()` where it can throw).
static inline lectern_zip_api *lectern_zip(void) {
    if (!lectern_zip_load()) {
        const char *reason = dlerror();
        fprintf(stderr, "lectern: cannot load libzip.so.4: %s\n", reason ? reason : "a function is missing");
        abort();
    }
    return &lectern_zip_api_table;
}

static inline int lectern_zip_close(zip_t *a0) { return lectern_zip()->zip_close(a0); }
static inline zip_int64_t lectern_zip_dir_add(zip_t *a0, const char *a1, zip_flags_t a2) { return lectern_zip()->zip_dir_add(a0, a1, a2); }
static inline void lectern_zip_discard(zip_t *a0) { lectern_zip()->zip_discard(a0); }
static inline int lectern_zip_error_code_zip(const zip_error_t *a0) { return lectern_zip()->zip_error_code_zip(a0); }
static inline void lectern_zip_error_fini(zip_error_t *a0) { lectern_zip()->zip_error_fini(a0); }
static inline void lectern_zip_error_init(zip_error_t *a0) { lectern_zip()->zip_error_init(a0); }
static inline void lectern_zip_error_init_with_code(zip_error_t *a0, int a1) { lectern_zip()->zip_error_init_with_code(a0, a1); }
static inline void lectern_zip_error_set(zip_error_t *a0, int a1, int a2) { lectern_zip()->zip_error_set(a0, a1, a2); }
static inline const char *lectern_zip_error_strerror(zip_error_t *a0) { return lectern_zip()->zip_error_strerror(a0); }
static inline zip_int64_t lectern_zip_error_to_data(const zip_error_t *a0, void *a1, zip_uint64_t a2) { return lectern_zip()->zip_error_to_data(a0, a1, a2); }
static inline int lectern_zip_fclose(zip_file_t *a0) { return lectern_zip()->zip_fclose(a0); }
static inline zip_int64_t lectern_zip_file_add(zip_t *a0, const char *a1, zip_source_t *a2, zip_flags_t a3) { return lectern_zip()->zip_file_add(a0, a1, a2, a3); }
static inline const zip_uint8_t *lectern_zip_file_extra_field_get_by_id(zip_t *a0, zip_uint64_t a1, zip_uint16_t a2, zip_uint16_t a3, zip_uint16_t *a4, zip_flags_t a5) { return lectern_zip()->zip_file_extra_field_get_by_id(a0, a1, a2, a3, a4, a5); }
static inline zip_error_t *lectern_zip_file_get_error(zip_file_t *a0) { return lectern_zip()->zip_file_get_error(a0); }
static inline int lectern_zip_file_set_mtime(zip_t *a0, zip_uint64_t a1, time_t a2, zip_flags_t a3) { return lectern_zip()->zip_file_set_mtime(a0, a1, a2, a3); }
static inline zip_file_t *lectern_zip_fopen_index(zip_t *a0, zip_uint64_t a1, zip_flags_t a2) { return lectern_zip()->zip_fopen_index(a0, a1, a2); }
static inline zip_int64_t lectern_zip_fread(zip_file_t *a0, void *a1, zip_uint64_t a2) { return lectern_zip()->zip_fread(a0, a1, a2); }
static inline zip_int8_t lectern_zip_fseek(zip_file_t *a0, zip_int64_t a1, int a2) { return lectern_zip()->zip_fseek(a0, a1, a2); }
static inline zip_error_t *lectern_zip_get_error(zip_t *a0) { return lectern_zip()->zip_get_error(a0); }
static inline const char *lectern_zip_get_name(zip_t *a0, zip_uint64_t a1, zip_flags_t a2) { return lectern_zip()->zip_get_name(a0, a1, a2); }
static inline zip_int64_t lectern_zip_get_num_entries(zip_t *a0, zip_flags_t a1) { return lectern_zip()->zip_get_num_entries(a0, a1); }
static inline zip_t *lectern_zip_open(const char *a0, int a1, int *a2) { return lectern_zip()->zip_open(a0, a1, a2); }
static inline zip_t *lectern_zip_open_from_source(zip_source_t *a0, int a1, zip_error_t *a2) { return lectern_zip()->zip_open_from_source(a0, a1, a2); }
static inline int lectern_zip_set_default_password(zip_t *a0, const char *a1) { return lectern_zip()->zip_set_default_password(a0, a1); }
static inline int lectern_zip_set_file_compression(zip_t *a0, zip_uint64_t a1, zip_int32_t a2, zip_uint32_t a3) { return lectern_zip()->zip_set_file_compression(a0, a1, a2, a3); }
static inline zip_source_t *lectern_zip_source_buffer(zip_t *a0, const void *a1, zip_uint64_t a2, int a3) { return lectern_zip()->zip_source_buffer(a0, a1, a2, a3); }
static inline void lectern_zip_source_free(zip_source_t *a0) { lectern_zip()->zip_source_free(a0); }
static inline zip_source_t *lectern_zip_source_function_create(zip_source_callback a0, void *a1, zip_error_t *a2) { return lectern_zip()->zip_source_function_create(a0, a1, a2); }
static inline zip_int64_t lectern_zip_source_seek_compute_offset(zip_uint64_t a0, zip_uint64_t a1, void *a2, zip_uint64_t a3, zip_error_t *a4) { return lectern_zip()->zip_source_seek_compute_offset(a0, a1, a2, a3, a4); }
static inline zip_source_t *lectern_zip_source_zip(zip_t *a0, zip_t *a1, zip_uint64_t a2, zip_flags_t a3, zip_uint64_t a4, zip_int64_t a5) { return lectern_zip()->zip_source_zip(a0, a1, a2, a3, a4, a5); }
static inline int lectern_zip_stat_index(zip_t *a0, zip_uint64_t a1, zip_flags_t a2, zip_stat_t *a3) { return lectern_zip()->zip_stat_index(a0, a1, a2, a3); }
static inline void lectern_zip_stat_init(zip_stat_t *a0) { lectern_zip()->zip_stat_init(a0); }
static inline const char *lectern_zip_strerror(zip_t *a0) { return lectern_zip()->zip_strerror(a0); }

#endif
