#ifndef LECTERN_ARCHIVE_SHIM_H
#define LECTERN_ARCHIVE_SHIM_H
// libarchive is loaded on first use with dlopen rather than linked, as djvulibre is (#28):
// linked, it brings nettle, acl, lzma, zstd, lz4 and bz2 into every `lectern` process, for the
// sessions that never open a RAR, 7z or tar comic. Its headers are in the default include
// path, so the types and constants come from them; every function is called through the table
// below. Calling one of the headers' functions directly fails at link time (nothing links
// libarchive), which keeps this rule.
#include <dlfcn.h>
#include <archive.h>
#include <archive_entry.h>

/* The file-type constants are casts, which Swift does not import. */
static const unsigned int lectern_archive_ifmt = 0170000;
static const unsigned int lectern_archive_ifreg = 0100000;
static const unsigned int lectern_archive_ifdir = 0040000;

typedef struct {
    int loaded;
    struct archive *(*read_new)(void);
    int (*read_support_filter_all)(struct archive *);
    int (*read_support_format_rar)(struct archive *);
    int (*read_support_format_rar5)(struct archive *);
    int (*read_support_format_7zip)(struct archive *);
    int (*read_support_format_tar)(struct archive *);
    int (*read_open_filename)(struct archive *, const char *, size_t);
    int (*read_open_memory)(struct archive *, const void *, size_t);
    int (*read_next_header)(struct archive *, struct archive_entry **);
    int (*read_has_encrypted_entries)(struct archive *);
    la_ssize_t (*read_data)(struct archive *, void *, size_t);
    int (*read_data_skip)(struct archive *);
    int (*read_free)(struct archive *);
    int (*errno_)(struct archive *);
    const char *(*error_string)(struct archive *);
    const char *(*format_name)(struct archive *);
    __LA_MODE_T (*entry_filetype)(struct archive_entry *);
    const char *(*entry_pathname)(struct archive_entry *);
    const char *(*entry_pathname_utf8)(struct archive_entry *);
    la_int64_t (*entry_size)(struct archive_entry *);
    int (*entry_size_is_set)(struct archive_entry *);
    int (*entry_is_encrypted)(struct archive_entry *);
} lectern_archive_api;

// One table for the whole program (a `static` would give each Swift file its own copy); the
// weak definition is merged into one by the linker.
__attribute__((weak)) lectern_archive_api lectern_archive_api_table = {0};

static inline lectern_archive_api *lectern_archive(void) {
    return &lectern_archive_api_table;
}

/// Loads libarchive once (callers serialise the first call); returns 1 when it is usable.
static inline int lectern_archive_load(void) {
    lectern_archive_api *api = lectern_archive();
    if (api->loaded) return api->loaded > 0;
    void *handle = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!handle) handle = dlopen("libarchive.so", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { api->loaded = -1; return 0; }
#define LECTERN_LOAD(field, symbol) \
    if (!(api->field = (__typeof__(api->field))dlsym(handle, symbol))) { api->loaded = -1; return 0; }
    LECTERN_LOAD(read_new, "archive_read_new")
    LECTERN_LOAD(read_support_filter_all, "archive_read_support_filter_all")
    LECTERN_LOAD(read_support_format_rar, "archive_read_support_format_rar")
    LECTERN_LOAD(read_support_format_rar5, "archive_read_support_format_rar5")
    LECTERN_LOAD(read_support_format_7zip, "archive_read_support_format_7zip")
    LECTERN_LOAD(read_support_format_tar, "archive_read_support_format_tar")
    LECTERN_LOAD(read_open_filename, "archive_read_open_filename")
    LECTERN_LOAD(read_open_memory, "archive_read_open_memory")
    LECTERN_LOAD(read_next_header, "archive_read_next_header")
    LECTERN_LOAD(read_has_encrypted_entries, "archive_read_has_encrypted_entries")
    LECTERN_LOAD(read_data, "archive_read_data")
    LECTERN_LOAD(read_data_skip, "archive_read_data_skip")
    LECTERN_LOAD(read_free, "archive_read_free")
    LECTERN_LOAD(errno_, "archive_errno")
    LECTERN_LOAD(error_string, "archive_error_string")
    LECTERN_LOAD(format_name, "archive_format_name")
    LECTERN_LOAD(entry_filetype, "archive_entry_filetype")
    LECTERN_LOAD(entry_pathname, "archive_entry_pathname")
    LECTERN_LOAD(entry_pathname_utf8, "archive_entry_pathname_utf8")
    LECTERN_LOAD(entry_size, "archive_entry_size")
    LECTERN_LOAD(entry_size_is_set, "archive_entry_size_is_set")
    LECTERN_LOAD(entry_is_encrypted, "archive_entry_is_encrypted")
#undef LECTERN_LOAD
    api->loaded = 1;
    return 1;
}

// One call each, for the Swift side (only after lectern_archive_load() returned 1).
static inline struct archive *lectern_archive_read_new(void) { return lectern_archive()->read_new(); }
static inline int lectern_archive_read_support_filter_all(struct archive *a) { return lectern_archive()->read_support_filter_all(a); }
static inline int lectern_archive_read_support_format_rar(struct archive *a) { return lectern_archive()->read_support_format_rar(a); }
static inline int lectern_archive_read_support_format_rar5(struct archive *a) { return lectern_archive()->read_support_format_rar5(a); }
static inline int lectern_archive_read_support_format_7zip(struct archive *a) { return lectern_archive()->read_support_format_7zip(a); }
static inline int lectern_archive_read_support_format_tar(struct archive *a) { return lectern_archive()->read_support_format_tar(a); }
static inline int lectern_archive_read_open_filename(struct archive *a, const char *path, size_t block) { return lectern_archive()->read_open_filename(a, path, block); }
static inline int lectern_archive_read_open_memory(struct archive *a, const void *bytes, size_t size) { return lectern_archive()->read_open_memory(a, bytes, size); }
static inline int lectern_archive_read_next_header(struct archive *a, struct archive_entry **entry) { return lectern_archive()->read_next_header(a, entry); }
static inline int lectern_archive_read_has_encrypted_entries(struct archive *a) { return lectern_archive()->read_has_encrypted_entries(a); }
static inline la_ssize_t lectern_archive_read_data(struct archive *a, void *buffer, size_t size) { return lectern_archive()->read_data(a, buffer, size); }
static inline int lectern_archive_read_data_skip(struct archive *a) { return lectern_archive()->read_data_skip(a); }
static inline int lectern_archive_read_free(struct archive *a) { return lectern_archive()->read_free(a); }
static inline int lectern_archive_errno(struct archive *a) { return lectern_archive()->errno_(a); }
static inline const char *lectern_archive_error_string(struct archive *a) { return lectern_archive()->error_string(a); }
static inline const char *lectern_archive_format_name(struct archive *a) { return lectern_archive()->format_name(a); }
static inline __LA_MODE_T lectern_archive_entry_filetype(struct archive_entry *e) { return lectern_archive()->entry_filetype(e); }
static inline const char *lectern_archive_entry_pathname(struct archive_entry *e) { return lectern_archive()->entry_pathname(e); }
static inline const char *lectern_archive_entry_pathname_utf8(struct archive_entry *e) { return lectern_archive()->entry_pathname_utf8(e); }
static inline la_int64_t lectern_archive_entry_size(struct archive_entry *e) { return lectern_archive()->entry_size(e); }
static inline int lectern_archive_entry_size_is_set(struct archive_entry *e) { return lectern_archive()->entry_size_is_set(e); }
static inline int lectern_archive_entry_is_encrypted(struct archive_entry *e) { return lectern_archive()->entry_is_encrypted(e); }

#ifdef LECTERN_ARCHIVE_ABI_CHECK
// Every field has the type of the function it is loaded from (`cc -fsyntax-only -Werror
// -DLECTERN_ARCHIVE_ABI_CHECK -x c shim.h`; a test runs it).
static inline void lectern_archive_abi_check(lectern_archive_api *api) {
    api->read_new = archive_read_new;
    api->read_support_filter_all = archive_read_support_filter_all;
    api->read_support_format_rar = archive_read_support_format_rar;
    api->read_support_format_rar5 = archive_read_support_format_rar5;
    api->read_support_format_7zip = archive_read_support_format_7zip;
    api->read_support_format_tar = archive_read_support_format_tar;
    api->read_open_filename = archive_read_open_filename;
    api->read_open_memory = archive_read_open_memory;
    api->read_next_header = archive_read_next_header;
    api->read_has_encrypted_entries = archive_read_has_encrypted_entries;
    api->read_data = archive_read_data;
    api->read_data_skip = archive_read_data_skip;
    api->read_free = archive_read_free;
    api->errno_ = archive_errno;
    api->error_string = archive_error_string;
    api->format_name = archive_format_name;
    api->entry_filetype = archive_entry_filetype;
    api->entry_pathname = archive_entry_pathname;
    api->entry_pathname_utf8 = archive_entry_pathname_utf8;
    api->entry_size = archive_entry_size;
    api->entry_size_is_set = archive_entry_size_is_set;
    api->entry_is_encrypted = archive_entry_is_encrypted;
}
#endif
#endif
