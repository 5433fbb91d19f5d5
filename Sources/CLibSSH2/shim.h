#ifndef ESSH_CLIBSSH2_SHIM_H
#define ESSH_CLIBSSH2_SHIM_H
#include <libssh2.h>
#include <libssh2_publickey.h>
#include <libssh2_sftp.h>

/* Function-like macros and constants Swift cannot import. */
static inline unsigned int essh_libssh2_channel_window_default(void) { return LIBSSH2_CHANNEL_WINDOW_DEFAULT; }
static inline unsigned int essh_libssh2_channel_packet_default(void) { return LIBSSH2_CHANNEL_PACKET_DEFAULT; }
#endif
