#ifndef ESSH_CLIBSSH2_SHIM_H
#define ESSH_CLIBSSH2_SHIM_H
#include <libssh2.h>
#include <libssh2_publickey.h>
#include <libssh2_sftp.h>

/* eSSH needs libssh2 1.11 (rsa-sha2 signatures and host keys, AES-GCM, ChaCha20, strict KEX, signals, banners).
   `make build` provides it, always the one built from Debian 13's source package plus eSSH's patches
   (Sources/CLibSSH2/libssh2-from-debian.sh), found through PKG_CONFIG_PATH; never a system libssh2, which has none of
   the patches (docs/SECURITY.md). */
#if LIBSSH2_VERSION_NUM < 0x010b00
#error "eSSH needs the libssh2 1.11.1 it builds and found an older one: build with `make build`, or export PKG_CONFIG_PATH=$(Sources/CLibSSH2/libssh2-from-debian.sh pkg-config-path) before `swift build`"
#endif

/* Written by libssh2-from-debian.sh next to the headers it installs. Without it these headers are some other libssh2
   (a system one found by pkg-config): the build stops here rather than link a library without eSSH's patches. */
#if __has_include(<essh_libssh2_origin.h>)
#include <essh_libssh2_origin.h>
#else
#error "these libssh2 headers are not the ones eSSH builds (no essh_libssh2_origin.h): build with `make build`, or export PKG_CONFIG_PATH=$(Sources/CLibSSH2/libssh2-from-debian.sh pkg-config-path) before `swift build`"
#endif

/* Function-like macros and constants Swift cannot import. */
static inline unsigned int essh_libssh2_channel_window_default(void) { return LIBSSH2_CHANNEL_WINDOW_DEFAULT; }
static inline unsigned int essh_libssh2_channel_packet_default(void) { return LIBSSH2_CHANNEL_PACKET_DEFAULT; }

/* 1 when the libssh2 built here carries patches/0001-crypt-middle-blocks-in-one-call.patch (AES-CTR/CBC/GCM handed to
   OpenSSL a packet at a time rather than 16 bytes at a time): AES-GCM is then the cheapest cipher, else the dearest. */
#ifndef ESSH_LIBSSH2_CRYPT_BATCHED
#define ESSH_LIBSSH2_CRYPT_BATCHED 0
#endif
static inline int essh_libssh2_crypt_batched(void) { return ESSH_LIBSSH2_CRYPT_BATCHED; }

/* 1 when the libssh2 built here carries patches/0003-concurrent-direct-tcpip-opens.patch: direct-tcpip opens in flight
   side by side on one session, each with its state in its channel (start, poll, abandon; see the patch's header).
   Without it (the patch removed) the wrappers below are never called: eSSH opens one channel at a time through
   libssh2_channel_direct_tcpip_ex, as libssh2 allows, and they only answer LIBSSH2_ERROR_BAD_USE. */
#ifndef ESSH_LIBSSH2_CONCURRENT_OPENS
#define ESSH_LIBSSH2_CONCURRENT_OPENS 0
#endif
static inline int essh_libssh2_concurrent_opens(void) { return ESSH_LIBSSH2_CONCURRENT_OPENS; }
static inline LIBSSH2_CHANNEL *essh_direct_tcpip_start(LIBSSH2_SESSION *session, const char *host, int port,
                                                       const char *shost, int sport) {
#if ESSH_LIBSSH2_CONCURRENT_OPENS
    return libssh2_channel_direct_tcpip_start(session, host, port, shost, sport);
#else
    (void)session; (void)host; (void)port; (void)shost; (void)sport;
    return 0;
#endif
}
static inline int essh_channel_open_poll(LIBSSH2_CHANNEL *channel) {
#if ESSH_LIBSSH2_CONCURRENT_OPENS
    return libssh2_channel_open_poll(channel);
#else
    (void)channel;
    return LIBSSH2_ERROR_BAD_USE;
#endif
}
static inline int essh_channel_open_abandon(LIBSSH2_CHANNEL *channel) {
#if ESSH_LIBSSH2_CONCURRENT_OPENS
    return libssh2_channel_open_abandon(channel);
#else
    (void)channel;
    return LIBSSH2_ERROR_BAD_USE;
#endif
}

/* libssh2 mallocs and frees one buffer per SSH packet (about 32 KiB). With glibc's default 128 KiB trim threshold the
   free top of the heap goes back to the kernel (brk) and is faulted in again every few packets: 0.3-0.35 s of system
   time per GB `cat`, up to 40 % of the client's CPU. A higher threshold keeps it (the heap still never grows beyond
   its peak). No-op without glibc. */
#if defined(__GLIBC__)
#include <malloc.h>
#endif
static inline void essh_keep_heap_top(int bytes) {
#if defined(__GLIBC__)
    (void)mallopt(M_TRIM_THRESHOLD, bytes);
#else
    (void)bytes;
#endif
}

/* Where the libssh2 this binary was built with came from: the build's note (always there: see the #error above). */
static inline const char *essh_libssh2_origin(void) {
#ifdef ESSH_LIBSSH2_ORIGIN
    return ESSH_LIBSSH2_ORIGIN;
#else
    return 0;
#endif
}
#endif
