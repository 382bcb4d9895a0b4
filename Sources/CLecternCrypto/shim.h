#ifndef LECTERN_CRYPTO_SHIM_H
#define LECTERN_CRYPTO_SHIM_H
// libcrypto is loaded on first use with dlopen rather than linked (#28): 1.5 MB resident in
// every process, where only digests, protected books, licenses and signatures need it. The
// installed headers supply the types and constants; every function is called through the table
// below, whose pointers take their types from the headers' own declarations (__typeof__).
// Calling one of the headers' functions directly fails at link time (nothing links libcrypto),
// which keeps this rule. Everything below the includes is written by Packaging/make-dlopen-shim.py
// (crypto, these headers joined by commas, libcrypto.so.3, the functions Sources/LibCrypto calls).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/sha.h>
#include <openssl/hmac.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/kdf.h>

typedef struct {
    int loaded;
    __typeof__(ASN1_INTEGER_to_BN) *ASN1_INTEGER_to_BN;
    __typeof__(ASN1_TIME_to_tm) *ASN1_TIME_to_tm;
    __typeof__(BIO_ctrl) *BIO_ctrl;
    __typeof__(BIO_free) *BIO_free;
    __typeof__(BIO_new) *BIO_new;
    __typeof__(BIO_new_mem_buf) *BIO_new_mem_buf;
    __typeof__(BIO_s_mem) *BIO_s_mem;
    __typeof__(BN_bin2bn) *BN_bin2bn;
    __typeof__(BN_bn2hex) *BN_bn2hex;
    __typeof__(BN_free) *BN_free;
    __typeof__(CRYPTO_free) *CRYPTO_free;
    __typeof__(CRYPTO_memcmp) *CRYPTO_memcmp;
    __typeof__(ECDSA_SIG_free) *ECDSA_SIG_free;
    __typeof__(ECDSA_SIG_new) *ECDSA_SIG_new;
    __typeof__(ECDSA_SIG_set0) *ECDSA_SIG_set0;
    __typeof__(ERR_clear_error) *ERR_clear_error;
    __typeof__(ERR_error_string_n) *ERR_error_string_n;
    __typeof__(ERR_get_error) *ERR_get_error;
    __typeof__(EVP_CIPHER_CTX_free) *EVP_CIPHER_CTX_free;
    __typeof__(EVP_CIPHER_CTX_new) *EVP_CIPHER_CTX_new;
    __typeof__(EVP_CIPHER_CTX_set_padding) *EVP_CIPHER_CTX_set_padding;
    __typeof__(EVP_DecryptFinal_ex) *EVP_DecryptFinal_ex;
    __typeof__(EVP_DecryptInit_ex) *EVP_DecryptInit_ex;
    __typeof__(EVP_DecryptUpdate) *EVP_DecryptUpdate;
    __typeof__(EVP_DigestFinal_ex) *EVP_DigestFinal_ex;
    __typeof__(EVP_DigestInit_ex) *EVP_DigestInit_ex;
    __typeof__(EVP_DigestUpdate) *EVP_DigestUpdate;
    __typeof__(EVP_DigestVerify) *EVP_DigestVerify;
    __typeof__(EVP_DigestVerifyInit) *EVP_DigestVerifyInit;
    __typeof__(EVP_EncryptFinal_ex) *EVP_EncryptFinal_ex;
    __typeof__(EVP_EncryptInit_ex) *EVP_EncryptInit_ex;
    __typeof__(EVP_EncryptUpdate) *EVP_EncryptUpdate;
    __typeof__(EVP_MD_CTX_free) *EVP_MD_CTX_free;
    __typeof__(EVP_MD_CTX_get_pkey_ctx) *EVP_MD_CTX_get_pkey_ctx;
    __typeof__(EVP_MD_CTX_new) *EVP_MD_CTX_new;
    __typeof__(EVP_PKEY_CTX_set_rsa_padding) *EVP_PKEY_CTX_set_rsa_padding;
    __typeof__(EVP_PKEY_free) *EVP_PKEY_free;
    __typeof__(EVP_PKEY_get_base_id) *EVP_PKEY_get_base_id;
    __typeof__(EVP_PKEY_get_bits) *EVP_PKEY_get_bits;
    __typeof__(EVP_aes_128_ecb) *EVP_aes_128_ecb;
    __typeof__(EVP_aes_192_ecb) *EVP_aes_192_ecb;
    __typeof__(EVP_aes_256_cbc) *EVP_aes_256_cbc;
    __typeof__(EVP_aes_256_ecb) *EVP_aes_256_ecb;
    __typeof__(EVP_md5) *EVP_md5;
    __typeof__(EVP_sha1) *EVP_sha1;
    __typeof__(EVP_sha256) *EVP_sha256;
    __typeof__(HMAC) *HMAC;
    __typeof__(OPENSSL_sk_free) *OPENSSL_sk_free;
    __typeof__(OPENSSL_sk_new_null) *OPENSSL_sk_new_null;
    __typeof__(OPENSSL_sk_push) *OPENSSL_sk_push;
    __typeof__(PEM_read_bio_PUBKEY) *PEM_read_bio_PUBKEY;
    __typeof__(PEM_read_bio_X509) *PEM_read_bio_X509;
    __typeof__(PEM_read_bio_X509_CRL) *PEM_read_bio_X509_CRL;
    __typeof__(PEM_write_bio_X509_CRL) *PEM_write_bio_X509_CRL;
    __typeof__(PKCS5_PBKDF2_HMAC) *PKCS5_PBKDF2_HMAC;
    __typeof__(RAND_bytes) *RAND_bytes;
    __typeof__(X509_CRL_free) *X509_CRL_free;
    __typeof__(X509_CRL_get0_by_cert) *X509_CRL_get0_by_cert;
    __typeof__(X509_CRL_get0_lastUpdate) *X509_CRL_get0_lastUpdate;
    __typeof__(X509_CRL_get0_nextUpdate) *X509_CRL_get0_nextUpdate;
    __typeof__(X509_CRL_get_issuer) *X509_CRL_get_issuer;
    __typeof__(X509_CRL_verify) *X509_CRL_verify;
    __typeof__(X509_NAME_cmp) *X509_NAME_cmp;
    __typeof__(X509_NAME_print_ex) *X509_NAME_print_ex;
    __typeof__(X509_STORE_CTX_free) *X509_STORE_CTX_free;
    __typeof__(X509_STORE_CTX_get0_param) *X509_STORE_CTX_get0_param;
    __typeof__(X509_STORE_CTX_get_error) *X509_STORE_CTX_get_error;
    __typeof__(X509_STORE_CTX_get_error_depth) *X509_STORE_CTX_get_error_depth;
    __typeof__(X509_STORE_CTX_init) *X509_STORE_CTX_init;
    __typeof__(X509_STORE_CTX_new) *X509_STORE_CTX_new;
    __typeof__(X509_STORE_add_cert) *X509_STORE_add_cert;
    __typeof__(X509_STORE_add_crl) *X509_STORE_add_crl;
    __typeof__(X509_STORE_free) *X509_STORE_free;
    __typeof__(X509_STORE_new) *X509_STORE_new;
    __typeof__(X509_VERIFY_PARAM_set_flags) *X509_VERIFY_PARAM_set_flags;
    __typeof__(X509_VERIFY_PARAM_set_time) *X509_VERIFY_PARAM_set_time;
    __typeof__(X509_free) *X509_free;
    __typeof__(X509_get0_notAfter) *X509_get0_notAfter;
    __typeof__(X509_get0_notBefore) *X509_get0_notBefore;
    __typeof__(X509_get0_serialNumber) *X509_get0_serialNumber;
    __typeof__(X509_get_issuer_name) *X509_get_issuer_name;
    __typeof__(X509_get_pubkey) *X509_get_pubkey;
    __typeof__(X509_get_subject_name) *X509_get_subject_name;
    __typeof__(X509_verify_cert) *X509_verify_cert;
    __typeof__(X509_verify_cert_error_string) *X509_verify_cert_error_string;
    __typeof__(d2i_PUBKEY) *d2i_PUBKEY;
    __typeof__(d2i_X509) *d2i_X509;
    __typeof__(d2i_X509_CRL) *d2i_X509_CRL;
    __typeof__(i2d_ECDSA_SIG) *i2d_ECDSA_SIG;
    __typeof__(i2d_X509) *i2d_X509;
    __typeof__(i2d_X509_CRL) *i2d_X509_CRL;
} lectern_crypto_api;

// One table and one flag for the whole program (a `static` would give each Swift file its own
// copy); the weak definitions are merged into one by the linker.
__attribute__((weak)) lectern_crypto_api lectern_crypto_api_table = {0};
__attribute__((weak)) pthread_once_t lectern_crypto_once = PTHREAD_ONCE_INIT;

static inline void lectern_crypto_load_once(void) {
    void *handle = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!handle) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ASN1_INTEGER_to_BN = (__typeof__(lectern_crypto_api_table.ASN1_INTEGER_to_BN))dlsym(handle, "ASN1_INTEGER_to_BN"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ASN1_TIME_to_tm = (__typeof__(lectern_crypto_api_table.ASN1_TIME_to_tm))dlsym(handle, "ASN1_TIME_to_tm"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BIO_ctrl = (__typeof__(lectern_crypto_api_table.BIO_ctrl))dlsym(handle, "BIO_ctrl"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BIO_free = (__typeof__(lectern_crypto_api_table.BIO_free))dlsym(handle, "BIO_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BIO_new = (__typeof__(lectern_crypto_api_table.BIO_new))dlsym(handle, "BIO_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BIO_new_mem_buf = (__typeof__(lectern_crypto_api_table.BIO_new_mem_buf))dlsym(handle, "BIO_new_mem_buf"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BIO_s_mem = (__typeof__(lectern_crypto_api_table.BIO_s_mem))dlsym(handle, "BIO_s_mem"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BN_bin2bn = (__typeof__(lectern_crypto_api_table.BN_bin2bn))dlsym(handle, "BN_bin2bn"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BN_bn2hex = (__typeof__(lectern_crypto_api_table.BN_bn2hex))dlsym(handle, "BN_bn2hex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.BN_free = (__typeof__(lectern_crypto_api_table.BN_free))dlsym(handle, "BN_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.CRYPTO_free = (__typeof__(lectern_crypto_api_table.CRYPTO_free))dlsym(handle, "CRYPTO_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.CRYPTO_memcmp = (__typeof__(lectern_crypto_api_table.CRYPTO_memcmp))dlsym(handle, "CRYPTO_memcmp"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ECDSA_SIG_free = (__typeof__(lectern_crypto_api_table.ECDSA_SIG_free))dlsym(handle, "ECDSA_SIG_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ECDSA_SIG_new = (__typeof__(lectern_crypto_api_table.ECDSA_SIG_new))dlsym(handle, "ECDSA_SIG_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ECDSA_SIG_set0 = (__typeof__(lectern_crypto_api_table.ECDSA_SIG_set0))dlsym(handle, "ECDSA_SIG_set0"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ERR_clear_error = (__typeof__(lectern_crypto_api_table.ERR_clear_error))dlsym(handle, "ERR_clear_error"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ERR_error_string_n = (__typeof__(lectern_crypto_api_table.ERR_error_string_n))dlsym(handle, "ERR_error_string_n"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.ERR_get_error = (__typeof__(lectern_crypto_api_table.ERR_get_error))dlsym(handle, "ERR_get_error"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_CIPHER_CTX_free = (__typeof__(lectern_crypto_api_table.EVP_CIPHER_CTX_free))dlsym(handle, "EVP_CIPHER_CTX_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_CIPHER_CTX_new = (__typeof__(lectern_crypto_api_table.EVP_CIPHER_CTX_new))dlsym(handle, "EVP_CIPHER_CTX_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_CIPHER_CTX_set_padding = (__typeof__(lectern_crypto_api_table.EVP_CIPHER_CTX_set_padding))dlsym(handle, "EVP_CIPHER_CTX_set_padding"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DecryptFinal_ex = (__typeof__(lectern_crypto_api_table.EVP_DecryptFinal_ex))dlsym(handle, "EVP_DecryptFinal_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DecryptInit_ex = (__typeof__(lectern_crypto_api_table.EVP_DecryptInit_ex))dlsym(handle, "EVP_DecryptInit_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DecryptUpdate = (__typeof__(lectern_crypto_api_table.EVP_DecryptUpdate))dlsym(handle, "EVP_DecryptUpdate"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DigestFinal_ex = (__typeof__(lectern_crypto_api_table.EVP_DigestFinal_ex))dlsym(handle, "EVP_DigestFinal_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DigestInit_ex = (__typeof__(lectern_crypto_api_table.EVP_DigestInit_ex))dlsym(handle, "EVP_DigestInit_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DigestUpdate = (__typeof__(lectern_crypto_api_table.EVP_DigestUpdate))dlsym(handle, "EVP_DigestUpdate"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DigestVerify = (__typeof__(lectern_crypto_api_table.EVP_DigestVerify))dlsym(handle, "EVP_DigestVerify"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_DigestVerifyInit = (__typeof__(lectern_crypto_api_table.EVP_DigestVerifyInit))dlsym(handle, "EVP_DigestVerifyInit"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_EncryptFinal_ex = (__typeof__(lectern_crypto_api_table.EVP_EncryptFinal_ex))dlsym(handle, "EVP_EncryptFinal_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_EncryptInit_ex = (__typeof__(lectern_crypto_api_table.EVP_EncryptInit_ex))dlsym(handle, "EVP_EncryptInit_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_EncryptUpdate = (__typeof__(lectern_crypto_api_table.EVP_EncryptUpdate))dlsym(handle, "EVP_EncryptUpdate"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_MD_CTX_free = (__typeof__(lectern_crypto_api_table.EVP_MD_CTX_free))dlsym(handle, "EVP_MD_CTX_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_MD_CTX_get_pkey_ctx = (__typeof__(lectern_crypto_api_table.EVP_MD_CTX_get_pkey_ctx))dlsym(handle, "EVP_MD_CTX_get_pkey_ctx"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_MD_CTX_new = (__typeof__(lectern_crypto_api_table.EVP_MD_CTX_new))dlsym(handle, "EVP_MD_CTX_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_PKEY_CTX_set_rsa_padding = (__typeof__(lectern_crypto_api_table.EVP_PKEY_CTX_set_rsa_padding))dlsym(handle, "EVP_PKEY_CTX_set_rsa_padding"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_PKEY_free = (__typeof__(lectern_crypto_api_table.EVP_PKEY_free))dlsym(handle, "EVP_PKEY_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_PKEY_get_base_id = (__typeof__(lectern_crypto_api_table.EVP_PKEY_get_base_id))dlsym(handle, "EVP_PKEY_get_base_id"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_PKEY_get_bits = (__typeof__(lectern_crypto_api_table.EVP_PKEY_get_bits))dlsym(handle, "EVP_PKEY_get_bits"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_aes_128_ecb = (__typeof__(lectern_crypto_api_table.EVP_aes_128_ecb))dlsym(handle, "EVP_aes_128_ecb"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_aes_192_ecb = (__typeof__(lectern_crypto_api_table.EVP_aes_192_ecb))dlsym(handle, "EVP_aes_192_ecb"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_aes_256_cbc = (__typeof__(lectern_crypto_api_table.EVP_aes_256_cbc))dlsym(handle, "EVP_aes_256_cbc"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_aes_256_ecb = (__typeof__(lectern_crypto_api_table.EVP_aes_256_ecb))dlsym(handle, "EVP_aes_256_ecb"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_md5 = (__typeof__(lectern_crypto_api_table.EVP_md5))dlsym(handle, "EVP_md5"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_sha1 = (__typeof__(lectern_crypto_api_table.EVP_sha1))dlsym(handle, "EVP_sha1"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.EVP_sha256 = (__typeof__(lectern_crypto_api_table.EVP_sha256))dlsym(handle, "EVP_sha256"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.HMAC = (__typeof__(lectern_crypto_api_table.HMAC))dlsym(handle, "HMAC"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.OPENSSL_sk_free = (__typeof__(lectern_crypto_api_table.OPENSSL_sk_free))dlsym(handle, "OPENSSL_sk_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.OPENSSL_sk_new_null = (__typeof__(lectern_crypto_api_table.OPENSSL_sk_new_null))dlsym(handle, "OPENSSL_sk_new_null"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.OPENSSL_sk_push = (__typeof__(lectern_crypto_api_table.OPENSSL_sk_push))dlsym(handle, "OPENSSL_sk_push"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.PEM_read_bio_PUBKEY = (__typeof__(lectern_crypto_api_table.PEM_read_bio_PUBKEY))dlsym(handle, "PEM_read_bio_PUBKEY"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.PEM_read_bio_X509 = (__typeof__(lectern_crypto_api_table.PEM_read_bio_X509))dlsym(handle, "PEM_read_bio_X509"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.PEM_read_bio_X509_CRL = (__typeof__(lectern_crypto_api_table.PEM_read_bio_X509_CRL))dlsym(handle, "PEM_read_bio_X509_CRL"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.PEM_write_bio_X509_CRL = (__typeof__(lectern_crypto_api_table.PEM_write_bio_X509_CRL))dlsym(handle, "PEM_write_bio_X509_CRL"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.PKCS5_PBKDF2_HMAC = (__typeof__(lectern_crypto_api_table.PKCS5_PBKDF2_HMAC))dlsym(handle, "PKCS5_PBKDF2_HMAC"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.RAND_bytes = (__typeof__(lectern_crypto_api_table.RAND_bytes))dlsym(handle, "RAND_bytes"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_free = (__typeof__(lectern_crypto_api_table.X509_CRL_free))dlsym(handle, "X509_CRL_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_get0_by_cert = (__typeof__(lectern_crypto_api_table.X509_CRL_get0_by_cert))dlsym(handle, "X509_CRL_get0_by_cert"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_get0_lastUpdate = (__typeof__(lectern_crypto_api_table.X509_CRL_get0_lastUpdate))dlsym(handle, "X509_CRL_get0_lastUpdate"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_get0_nextUpdate = (__typeof__(lectern_crypto_api_table.X509_CRL_get0_nextUpdate))dlsym(handle, "X509_CRL_get0_nextUpdate"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_get_issuer = (__typeof__(lectern_crypto_api_table.X509_CRL_get_issuer))dlsym(handle, "X509_CRL_get_issuer"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_CRL_verify = (__typeof__(lectern_crypto_api_table.X509_CRL_verify))dlsym(handle, "X509_CRL_verify"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_NAME_cmp = (__typeof__(lectern_crypto_api_table.X509_NAME_cmp))dlsym(handle, "X509_NAME_cmp"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_NAME_print_ex = (__typeof__(lectern_crypto_api_table.X509_NAME_print_ex))dlsym(handle, "X509_NAME_print_ex"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_free = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_free))dlsym(handle, "X509_STORE_CTX_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_get0_param = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_get0_param))dlsym(handle, "X509_STORE_CTX_get0_param"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_get_error = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_get_error))dlsym(handle, "X509_STORE_CTX_get_error"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_get_error_depth = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_get_error_depth))dlsym(handle, "X509_STORE_CTX_get_error_depth"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_init = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_init))dlsym(handle, "X509_STORE_CTX_init"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_CTX_new = (__typeof__(lectern_crypto_api_table.X509_STORE_CTX_new))dlsym(handle, "X509_STORE_CTX_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_add_cert = (__typeof__(lectern_crypto_api_table.X509_STORE_add_cert))dlsym(handle, "X509_STORE_add_cert"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_add_crl = (__typeof__(lectern_crypto_api_table.X509_STORE_add_crl))dlsym(handle, "X509_STORE_add_crl"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_free = (__typeof__(lectern_crypto_api_table.X509_STORE_free))dlsym(handle, "X509_STORE_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_STORE_new = (__typeof__(lectern_crypto_api_table.X509_STORE_new))dlsym(handle, "X509_STORE_new"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_VERIFY_PARAM_set_flags = (__typeof__(lectern_crypto_api_table.X509_VERIFY_PARAM_set_flags))dlsym(handle, "X509_VERIFY_PARAM_set_flags"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_VERIFY_PARAM_set_time = (__typeof__(lectern_crypto_api_table.X509_VERIFY_PARAM_set_time))dlsym(handle, "X509_VERIFY_PARAM_set_time"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_free = (__typeof__(lectern_crypto_api_table.X509_free))dlsym(handle, "X509_free"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get0_notAfter = (__typeof__(lectern_crypto_api_table.X509_get0_notAfter))dlsym(handle, "X509_get0_notAfter"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get0_notBefore = (__typeof__(lectern_crypto_api_table.X509_get0_notBefore))dlsym(handle, "X509_get0_notBefore"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get0_serialNumber = (__typeof__(lectern_crypto_api_table.X509_get0_serialNumber))dlsym(handle, "X509_get0_serialNumber"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get_issuer_name = (__typeof__(lectern_crypto_api_table.X509_get_issuer_name))dlsym(handle, "X509_get_issuer_name"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get_pubkey = (__typeof__(lectern_crypto_api_table.X509_get_pubkey))dlsym(handle, "X509_get_pubkey"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_get_subject_name = (__typeof__(lectern_crypto_api_table.X509_get_subject_name))dlsym(handle, "X509_get_subject_name"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_verify_cert = (__typeof__(lectern_crypto_api_table.X509_verify_cert))dlsym(handle, "X509_verify_cert"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.X509_verify_cert_error_string = (__typeof__(lectern_crypto_api_table.X509_verify_cert_error_string))dlsym(handle, "X509_verify_cert_error_string"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.d2i_PUBKEY = (__typeof__(lectern_crypto_api_table.d2i_PUBKEY))dlsym(handle, "d2i_PUBKEY"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.d2i_X509 = (__typeof__(lectern_crypto_api_table.d2i_X509))dlsym(handle, "d2i_X509"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.d2i_X509_CRL = (__typeof__(lectern_crypto_api_table.d2i_X509_CRL))dlsym(handle, "d2i_X509_CRL"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.i2d_ECDSA_SIG = (__typeof__(lectern_crypto_api_table.i2d_ECDSA_SIG))dlsym(handle, "i2d_ECDSA_SIG"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.i2d_X509 = (__typeof__(lectern_crypto_api_table.i2d_X509))dlsym(handle, "i2d_X509"))) { lectern_crypto_api_table.loaded = -1; return; }
    if (!(lectern_crypto_api_table.i2d_X509_CRL = (__typeof__(lectern_crypto_api_table.i2d_X509_CRL))dlsym(handle, "i2d_X509_CRL"))) { lectern_crypto_api_table.loaded = -1; return; }
    lectern_crypto_api_table.loaded = 1;
}

/// Loads the library once, from any thread; returns 1 when it is usable.
static inline int lectern_crypto_load(void) {
    pthread_once(&lectern_crypto_once, lectern_crypto_load_once);
    return lectern_crypto_api_table.loaded > 0;
}

/// The table, loaded; a library that cannot be loaded ends the program with its name (it is
/// a dependency of the package: the Swift side checks `lectern_crypto_load()` where it can throw).
static inline lectern_crypto_api *lectern_crypto(void) {
    if (!lectern_crypto_load()) {
        const char *reason = dlerror();
        fprintf(stderr, "lectern: cannot load libcrypto.so.3: %s\n", reason ? reason : "a function is missing");
        abort();
    }
    return &lectern_crypto_api_table;
}

static inline BIGNUM *lectern_ASN1_INTEGER_to_BN(const ASN1_INTEGER *a0, BIGNUM *a1) { return lectern_crypto()->ASN1_INTEGER_to_BN(a0, a1); }
static inline int lectern_ASN1_TIME_to_tm(const ASN1_TIME *a0, struct tm *a1) { return lectern_crypto()->ASN1_TIME_to_tm(a0, a1); }
static inline long lectern_BIO_ctrl(BIO *a0, int a1, long a2, void *a3) { return lectern_crypto()->BIO_ctrl(a0, a1, a2, a3); }
static inline int lectern_BIO_free(BIO *a0) { return lectern_crypto()->BIO_free(a0); }
static inline BIO *lectern_BIO_new(const BIO_METHOD *a0) { return lectern_crypto()->BIO_new(a0); }
static inline BIO *lectern_BIO_new_mem_buf(const void *a0, int a1) { return lectern_crypto()->BIO_new_mem_buf(a0, a1); }
static inline const BIO_METHOD *lectern_BIO_s_mem(void) { return lectern_crypto()->BIO_s_mem(); }
static inline BIGNUM *lectern_BN_bin2bn(const unsigned char *a0, int a1, BIGNUM *a2) { return lectern_crypto()->BN_bin2bn(a0, a1, a2); }
static inline char *lectern_BN_bn2hex(const BIGNUM *a0) { return lectern_crypto()->BN_bn2hex(a0); }
static inline void lectern_BN_free(BIGNUM *a0) { lectern_crypto()->BN_free(a0); }
static inline void lectern_CRYPTO_free(void *a0, const char *a1, int a2) { lectern_crypto()->CRYPTO_free(a0, a1, a2); }
static inline int lectern_CRYPTO_memcmp(const void *a0, const void *a1, size_t a2) { return lectern_crypto()->CRYPTO_memcmp(a0, a1, a2); }
static inline void lectern_ECDSA_SIG_free(ECDSA_SIG *a0) { lectern_crypto()->ECDSA_SIG_free(a0); }
static inline ECDSA_SIG *lectern_ECDSA_SIG_new(void) { return lectern_crypto()->ECDSA_SIG_new(); }
static inline int lectern_ECDSA_SIG_set0(ECDSA_SIG *a0, BIGNUM *a1, BIGNUM *a2) { return lectern_crypto()->ECDSA_SIG_set0(a0, a1, a2); }
static inline void lectern_ERR_clear_error(void) { lectern_crypto()->ERR_clear_error(); }
static inline void lectern_ERR_error_string_n(unsigned long a0, char *a1, size_t a2) { lectern_crypto()->ERR_error_string_n(a0, a1, a2); }
static inline unsigned long lectern_ERR_get_error(void) { return lectern_crypto()->ERR_get_error(); }
static inline void lectern_EVP_CIPHER_CTX_free(EVP_CIPHER_CTX *a0) { lectern_crypto()->EVP_CIPHER_CTX_free(a0); }
static inline EVP_CIPHER_CTX *lectern_EVP_CIPHER_CTX_new(void) { return lectern_crypto()->EVP_CIPHER_CTX_new(); }
static inline int lectern_EVP_CIPHER_CTX_set_padding(EVP_CIPHER_CTX *a0, int a1) { return lectern_crypto()->EVP_CIPHER_CTX_set_padding(a0, a1); }
static inline int lectern_EVP_DecryptFinal_ex(EVP_CIPHER_CTX *a0, unsigned char *a1, int *a2) { return lectern_crypto()->EVP_DecryptFinal_ex(a0, a1, a2); }
static inline int lectern_EVP_DecryptInit_ex(EVP_CIPHER_CTX *a0, const EVP_CIPHER *a1, ENGINE *a2, const unsigned char *a3, const unsigned char *a4) { return lectern_crypto()->EVP_DecryptInit_ex(a0, a1, a2, a3, a4); }
static inline int lectern_EVP_DecryptUpdate(EVP_CIPHER_CTX *a0, unsigned char *a1, int *a2, const unsigned char *a3, int a4) { return lectern_crypto()->EVP_DecryptUpdate(a0, a1, a2, a3, a4); }
static inline int lectern_EVP_DigestFinal_ex(EVP_MD_CTX *a0, unsigned char *a1, unsigned int *a2) { return lectern_crypto()->EVP_DigestFinal_ex(a0, a1, a2); }
static inline int lectern_EVP_DigestInit_ex(EVP_MD_CTX *a0, const EVP_MD *a1, ENGINE *a2) { return lectern_crypto()->EVP_DigestInit_ex(a0, a1, a2); }
static inline int lectern_EVP_DigestUpdate(EVP_MD_CTX *a0, const void *a1, size_t a2) { return lectern_crypto()->EVP_DigestUpdate(a0, a1, a2); }
static inline int lectern_EVP_DigestVerify(EVP_MD_CTX *a0, const unsigned char *a1, size_t a2, const unsigned char *a3, size_t a4) { return lectern_crypto()->EVP_DigestVerify(a0, a1, a2, a3, a4); }
static inline int lectern_EVP_DigestVerifyInit(EVP_MD_CTX *a0, EVP_PKEY_CTX **a1, const EVP_MD *a2, ENGINE *a3, EVP_PKEY *a4) { return lectern_crypto()->EVP_DigestVerifyInit(a0, a1, a2, a3, a4); }
static inline int lectern_EVP_EncryptFinal_ex(EVP_CIPHER_CTX *a0, unsigned char *a1, int *a2) { return lectern_crypto()->EVP_EncryptFinal_ex(a0, a1, a2); }
static inline int lectern_EVP_EncryptInit_ex(EVP_CIPHER_CTX *a0, const EVP_CIPHER *a1, ENGINE *a2, const unsigned char *a3, const unsigned char *a4) { return lectern_crypto()->EVP_EncryptInit_ex(a0, a1, a2, a3, a4); }
static inline int lectern_EVP_EncryptUpdate(EVP_CIPHER_CTX *a0, unsigned char *a1, int *a2, const unsigned char *a3, int a4) { return lectern_crypto()->EVP_EncryptUpdate(a0, a1, a2, a3, a4); }
static inline void lectern_EVP_MD_CTX_free(EVP_MD_CTX *a0) { lectern_crypto()->EVP_MD_CTX_free(a0); }
static inline EVP_PKEY_CTX *lectern_EVP_MD_CTX_get_pkey_ctx(const EVP_MD_CTX *a0) { return lectern_crypto()->EVP_MD_CTX_get_pkey_ctx(a0); }
static inline EVP_MD_CTX *lectern_EVP_MD_CTX_new(void) { return lectern_crypto()->EVP_MD_CTX_new(); }
static inline int lectern_EVP_PKEY_CTX_set_rsa_padding(EVP_PKEY_CTX *a0, int a1) { return lectern_crypto()->EVP_PKEY_CTX_set_rsa_padding(a0, a1); }
static inline void lectern_EVP_PKEY_free(EVP_PKEY *a0) { lectern_crypto()->EVP_PKEY_free(a0); }
static inline int lectern_EVP_PKEY_get_base_id(const EVP_PKEY *a0) { return lectern_crypto()->EVP_PKEY_get_base_id(a0); }
static inline int lectern_EVP_PKEY_get_bits(const EVP_PKEY *a0) { return lectern_crypto()->EVP_PKEY_get_bits(a0); }
static inline const EVP_CIPHER *lectern_EVP_aes_128_ecb(void) { return lectern_crypto()->EVP_aes_128_ecb(); }
static inline const EVP_CIPHER *lectern_EVP_aes_192_ecb(void) { return lectern_crypto()->EVP_aes_192_ecb(); }
static inline const EVP_CIPHER *lectern_EVP_aes_256_cbc(void) { return lectern_crypto()->EVP_aes_256_cbc(); }
static inline const EVP_CIPHER *lectern_EVP_aes_256_ecb(void) { return lectern_crypto()->EVP_aes_256_ecb(); }
static inline const EVP_MD *lectern_EVP_md5(void) { return lectern_crypto()->EVP_md5(); }
static inline const EVP_MD *lectern_EVP_sha1(void) { return lectern_crypto()->EVP_sha1(); }
static inline const EVP_MD *lectern_EVP_sha256(void) { return lectern_crypto()->EVP_sha256(); }
static inline unsigned char *lectern_HMAC(const EVP_MD *a0, const void *a1, int a2, const unsigned char *a3, size_t a4, unsigned char *a5, unsigned int *a6) { return lectern_crypto()->HMAC(a0, a1, a2, a3, a4, a5, a6); }
static inline void lectern_OPENSSL_sk_free(OPENSSL_STACK *a0) { lectern_crypto()->OPENSSL_sk_free(a0); }
static inline OPENSSL_STACK *lectern_OPENSSL_sk_new_null(void) { return lectern_crypto()->OPENSSL_sk_new_null(); }
static inline int lectern_OPENSSL_sk_push(OPENSSL_STACK *a0, const void *a1) { return lectern_crypto()->OPENSSL_sk_push(a0, a1); }
static inline EVP_PKEY *lectern_PEM_read_bio_PUBKEY(BIO *a0, EVP_PKEY **a1, pem_password_cb *a2, void *a3) { return lectern_crypto()->PEM_read_bio_PUBKEY(a0, a1, a2, a3); }
static inline X509 *lectern_PEM_read_bio_X509(BIO *a0, X509 **a1, pem_password_cb *a2, void *a3) { return lectern_crypto()->PEM_read_bio_X509(a0, a1, a2, a3); }
static inline X509_CRL *lectern_PEM_read_bio_X509_CRL(BIO *a0, X509_CRL **a1, pem_password_cb *a2, void *a3) { return lectern_crypto()->PEM_read_bio_X509_CRL(a0, a1, a2, a3); }
static inline int lectern_PEM_write_bio_X509_CRL(BIO *a0, const X509_CRL *a1) { return lectern_crypto()->PEM_write_bio_X509_CRL(a0, a1); }
static inline int lectern_PKCS5_PBKDF2_HMAC(const char *a0, int a1, const unsigned char *a2, int a3, int a4, const EVP_MD *a5, int a6, unsigned char *a7) { return lectern_crypto()->PKCS5_PBKDF2_HMAC(a0, a1, a2, a3, a4, a5, a6, a7); }
static inline int lectern_RAND_bytes(unsigned char *a0, int a1) { return lectern_crypto()->RAND_bytes(a0, a1); }
static inline void lectern_X509_CRL_free(X509_CRL *a0) { lectern_crypto()->X509_CRL_free(a0); }
static inline int lectern_X509_CRL_get0_by_cert(X509_CRL *a0, X509_REVOKED **a1, X509 *a2) { return lectern_crypto()->X509_CRL_get0_by_cert(a0, a1, a2); }
static inline const ASN1_TIME *lectern_X509_CRL_get0_lastUpdate(const X509_CRL *a0) { return lectern_crypto()->X509_CRL_get0_lastUpdate(a0); }
static inline const ASN1_TIME *lectern_X509_CRL_get0_nextUpdate(const X509_CRL *a0) { return lectern_crypto()->X509_CRL_get0_nextUpdate(a0); }
static inline X509_NAME *lectern_X509_CRL_get_issuer(const X509_CRL *a0) { return lectern_crypto()->X509_CRL_get_issuer(a0); }
static inline int lectern_X509_CRL_verify(X509_CRL *a0, EVP_PKEY *a1) { return lectern_crypto()->X509_CRL_verify(a0, a1); }
static inline int lectern_X509_NAME_cmp(const X509_NAME *a0, const X509_NAME *a1) { return lectern_crypto()->X509_NAME_cmp(a0, a1); }
static inline int lectern_X509_NAME_print_ex(BIO *a0, const X509_NAME *a1, int a2, unsigned long a3) { return lectern_crypto()->X509_NAME_print_ex(a0, a1, a2, a3); }
static inline void lectern_X509_STORE_CTX_free(X509_STORE_CTX *a0) { lectern_crypto()->X509_STORE_CTX_free(a0); }
static inline X509_VERIFY_PARAM *lectern_X509_STORE_CTX_get0_param(const X509_STORE_CTX *a0) { return lectern_crypto()->X509_STORE_CTX_get0_param(a0); }
static inline int lectern_X509_STORE_CTX_get_error(const X509_STORE_CTX *a0) { return lectern_crypto()->X509_STORE_CTX_get_error(a0); }
static inline int lectern_X509_STORE_CTX_get_error_depth(const X509_STORE_CTX *a0) { return lectern_crypto()->X509_STORE_CTX_get_error_depth(a0); }
static inline int lectern_X509_STORE_CTX_init(X509_STORE_CTX *a0, X509_STORE *a1, X509 *a2, struct stack_st_X509 *a3) { return lectern_crypto()->X509_STORE_CTX_init(a0, a1, a2, a3); }
static inline X509_STORE_CTX *lectern_X509_STORE_CTX_new(void) { return lectern_crypto()->X509_STORE_CTX_new(); }
static inline int lectern_X509_STORE_add_cert(X509_STORE *a0, X509 *a1) { return lectern_crypto()->X509_STORE_add_cert(a0, a1); }
static inline int lectern_X509_STORE_add_crl(X509_STORE *a0, X509_CRL *a1) { return lectern_crypto()->X509_STORE_add_crl(a0, a1); }
static inline void lectern_X509_STORE_free(X509_STORE *a0) { lectern_crypto()->X509_STORE_free(a0); }
static inline X509_STORE *lectern_X509_STORE_new(void) { return lectern_crypto()->X509_STORE_new(); }
static inline int lectern_X509_VERIFY_PARAM_set_flags(X509_VERIFY_PARAM *a0, unsigned long a1) { return lectern_crypto()->X509_VERIFY_PARAM_set_flags(a0, a1); }
static inline void lectern_X509_VERIFY_PARAM_set_time(X509_VERIFY_PARAM *a0, time_t a1) { lectern_crypto()->X509_VERIFY_PARAM_set_time(a0, a1); }
static inline void lectern_X509_free(X509 *a0) { lectern_crypto()->X509_free(a0); }
static inline const ASN1_TIME *lectern_X509_get0_notAfter(const X509 *a0) { return lectern_crypto()->X509_get0_notAfter(a0); }
static inline const ASN1_TIME *lectern_X509_get0_notBefore(const X509 *a0) { return lectern_crypto()->X509_get0_notBefore(a0); }
static inline const ASN1_INTEGER *lectern_X509_get0_serialNumber(const X509 *a0) { return lectern_crypto()->X509_get0_serialNumber(a0); }
static inline X509_NAME *lectern_X509_get_issuer_name(const X509 *a0) { return lectern_crypto()->X509_get_issuer_name(a0); }
static inline EVP_PKEY *lectern_X509_get_pubkey(X509 *a0) { return lectern_crypto()->X509_get_pubkey(a0); }
static inline X509_NAME *lectern_X509_get_subject_name(const X509 *a0) { return lectern_crypto()->X509_get_subject_name(a0); }
static inline int lectern_X509_verify_cert(X509_STORE_CTX *a0) { return lectern_crypto()->X509_verify_cert(a0); }
static inline const char *lectern_X509_verify_cert_error_string(long a0) { return lectern_crypto()->X509_verify_cert_error_string(a0); }
static inline EVP_PKEY *lectern_d2i_PUBKEY(EVP_PKEY **a0, const unsigned char **a1, long a2) { return lectern_crypto()->d2i_PUBKEY(a0, a1, a2); }
static inline X509 *lectern_d2i_X509(X509 **a0, const unsigned char **a1, long a2) { return lectern_crypto()->d2i_X509(a0, a1, a2); }
static inline X509_CRL *lectern_d2i_X509_CRL(X509_CRL **a0, const unsigned char **a1, long a2) { return lectern_crypto()->d2i_X509_CRL(a0, a1, a2); }
static inline int lectern_i2d_ECDSA_SIG(const ECDSA_SIG *a0, unsigned char **a1) { return lectern_crypto()->i2d_ECDSA_SIG(a0, a1); }
static inline int lectern_i2d_X509(const X509 *a0, unsigned char **a1) { return lectern_crypto()->i2d_X509(a0, a1); }
static inline int lectern_i2d_X509_CRL(const X509_CRL *a0, unsigned char **a1) { return lectern_crypto()->i2d_X509_CRL(a0, a1); }

#endif
