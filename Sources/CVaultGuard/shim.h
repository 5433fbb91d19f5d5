// Linux calls (and signalfd, which the Glibc module does not bring in) the vault's unlock agent needs that Swift cannot make itself: prctl is variadic, and struct ucred is
// hidden behind _GNU_SOURCE. Only Vault imports this.
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/signalfd.h>

// The layout of Linux's struct ucred (pid_t, uid_t, gid_t).
struct essh_vault_ucred { int pid; unsigned int uid; unsigned int gid; };

// No core dumps and no ptrace attach by other processes of the same user (PR_SET_DUMPABLE 0).
static inline int essh_vault_set_undumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

// 1 when the process may be dumped, 0 when not, -1 on error.
static inline int essh_vault_is_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

// The uid of the process at the other end of a Unix socket (SO_PEERCRED), 0 on success.
static inline int essh_vault_peer_uid(int fd, unsigned int *uid) {
    struct essh_vault_ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}
