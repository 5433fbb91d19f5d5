#ifndef ESSH_FUZZ_OPENSSL_SHIM_H
#define ESSH_FUZZ_OPENSSL_SHIM_H
/* The two digests the fuzz builds' Crypto stand-in needs (Shims/Crypto.swift), from the OpenSSL libssh2 links. */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
