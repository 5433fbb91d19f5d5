/*
 * hostile-client: libssh2's client side for the hostile-server cases (Tests/LibSSH2/run-hostile.sh).
 *
 *   hostile-client PORT [kex-methods [cipher-methods]]
 *   hostile-client PORT exec
 *   hostile-client PORT sftp
 *   hostile-client PORT key PRIVATE-KEY-FILE
 *   hostile-client PORT ignore
 *   hostile-client PORT sftp-long FUNCTION
 *   hostile-client PORT kbd-long
 *
 * Connects to 127.0.0.1:PORT, runs libssh2_session_handshake (banner, key exchange, ssh-userauth service request)
 * in blocking mode with a 10 s libssh2 timeout, and prints one line:
 *   handshake ok
 *   handshake refused rc=N: MESSAGE
 * With "exec" it goes on after a handshake: authentication "none" as user "essh" (the hostile server accepts it),
 * a session channel, exec "true", reading stdout and stderr to EOF, closing, then the exit status and exit signal,
 * and prints "exec ok status=N signal=NAME|-" or "exec refused rc=N: MESSAGE". With "sftp": the same login, then
 * the SFTP subsystem, opendir ".", readdir to the end, close: "sftp ok names=N" or "sftp refused rc=N: MESSAGE".
 * With "key FILE": libssh2_userauth_publickey_fromfile_ex as user "essh" with that private key and no public key
 * file (libssh2 parses the private key to derive it, as for eSSH's --identity): "key ok" (a login) or
 * "key refused rc=N: MESSAGE".
 * With "ignore" (how eSSH's jump-host relay reads a channel, LIBSSH2_CHANNEL_EXTENDED_DATA_IGNORE): the exec login
 * and channel with stderr ignored; then, non-blocking, the driver fills its socket's send buffer with raw bytes (the
 * server has stopped reading: nothing of it is ever parsed) so that the window adjustment libssh2 sends for the
 * ignored stderr would block, reads until libssh2 reports exactly that (EAGAIN, blocked outbound), reads once more
 * (the retry, where libssh2 takes up the suspended packet again): "ignore ok retries=N" or "ignore refused …".
 * With "sftp-long FUNCTION" (open, unlink, rename, mkdir, rmdir, stat, symlink, statvfs): the sftp login and
 * libssh2_sftp_init, then that one SFTP call with a name length of 4 GiB - 3 on a 64-byte name (a caller's
 * arguments whose request cannot fit SFTP's 32-bit length): "sftp-long refused rc=-41: MESSAGE" when libssh2 refuses
 * it with LIBSSH2_ERROR_OUT_OF_BOUNDARY (exit 2); any other outcome is the driver's failure (exit 1).
 * With "kbd-long": after the handshake, keyboard-interactive login with a user name length of 4 GiB - 4 on a 64-byte
 * name: "kbd-long refused rc=-41: MESSAGE" when libssh2 refuses it with LIBSSH2_ERROR_OUT_OF_BOUNDARY (exit 2); any
 * other outcome is the driver's failure (exit 1).
 * Exit status: 0 handshake (and exec) completed, 2 libssh2 refused it (rc < 0), 1 the driver itself failed.
 * A memory error in libssh2 ends the process through AddressSanitizer instead (its report on stderr, exit 1 or a
 * signal), which the runner tells apart from a clean refusal.
 */
#include <libssh2.h>
#include <libssh2_sftp.h>

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <time.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int refused(LIBSSH2_SESSION *session, const char *what, int rc)
{
    char *msg = NULL;
    libssh2_session_last_error(session, &msg, NULL, 0);
    printf("%s refused rc=%d: %s\n", what, rc, msg ? msg : "");
    return 2;
}

/* Authentication "none", a session channel, exec "true", read to EOF, close; exit status and signal. */
static int run_exec(LIBSSH2_SESSION *session)
{
    char buf[4096];
    ssize_t n;
    int rc;
    const char *user = "essh";
    char *methods = libssh2_userauth_list(session, user, (unsigned int)strlen(user));
    if(!methods && !libssh2_userauth_authenticated(session))
        return refused(session, "auth", libssh2_session_last_errno(session));
    LIBSSH2_CHANNEL *channel = libssh2_channel_open_ex(session, "session", 7, 2 * 1024 * 1024, 32768, NULL, 0);
    if(!channel)
        return refused(session, "exec", libssh2_session_last_errno(session));
    rc = libssh2_channel_process_startup(channel, "exec", 4, "true", 4);
    if(rc)
        return refused(session, "exec", rc);
    for(;;) {
        n = libssh2_channel_read_ex(channel, 0, buf, sizeof(buf));
        if(n < 0)
            return refused(session, "exec", (int)n);
        if(n == 0) {
            n = libssh2_channel_read_ex(channel, SSH_EXTENDED_DATA_STDERR, buf, sizeof(buf));
            if(n < 0)
                return refused(session, "exec", (int)n);
            if(n == 0 && libssh2_channel_eof(channel))
                break;
        }
    }
    libssh2_channel_close(channel);
    libssh2_channel_wait_closed(channel);
    int exit_status = libssh2_channel_get_exit_status(channel);
    char *signal = NULL;
    size_t signal_len = 0;
    libssh2_channel_get_exit_signal(channel, &signal, &signal_len, NULL, NULL, NULL, NULL);
    printf("exec ok status=%d signal=%s\n", exit_status, signal ? signal : "-");
    if(signal)
        libssh2_free(session, signal);
    libssh2_channel_free(channel);
    return 0;
}

/* Authentication "none", the SFTP subsystem, opendir ".", readdir to the end, close. */
static int run_sftp(LIBSSH2_SESSION *session)
{
    const char *user = "essh";
    char name[512];
    LIBSSH2_SFTP_ATTRIBUTES attrs;
    int names = 0, rc;
    char *methods = libssh2_userauth_list(session, user, (unsigned int)strlen(user));
    if(!methods && !libssh2_userauth_authenticated(session))
        return refused(session, "auth", libssh2_session_last_errno(session));
    LIBSSH2_SFTP *sftp = libssh2_sftp_init(session);
    if(!sftp)
        return refused(session, "sftp", libssh2_session_last_errno(session));
    LIBSSH2_SFTP_HANDLE *dir = libssh2_sftp_open_ex(sftp, ".", 1, 0, 0, LIBSSH2_SFTP_OPENDIR);
    if(!dir)
        return refused(session, "sftp", libssh2_session_last_errno(session));
    while((rc = libssh2_sftp_readdir_ex(dir, name, sizeof(name), NULL, 0, &attrs)) > 0)
        names++;
    int status = rc < 0 ? refused(session, "sftp", rc) : 0;
    /* the driver frees what it holds on both paths, so LeakSanitizer sees only libssh2's own leaks */
    libssh2_sftp_close_handle(dir);
    libssh2_sftp_shutdown(sftp);
    if(status == 0)
        printf("sftp ok names=%d\n", names);
    return status;
}

/* The sftp login, then one SFTP call whose name length (4 GiB - 3) cannot fit the request's 32-bit length, on a
   64-byte name: libssh2 must refuse it with LIBSSH2_ERROR_OUT_OF_BOUNDARY before allocating or sending anything. */
static int run_sftp_long(LIBSSH2_SESSION *session, const char *function)
{
    static char name[64] = "long";
    const unsigned int huge = 0xFFFFFFFCu;
    const char *user = "essh";
    LIBSSH2_SFTP_ATTRIBUTES attrs;
    LIBSSH2_SFTP_STATVFS st;
    char *methods = libssh2_userauth_list(session, user, (unsigned int)strlen(user));
    if(!methods && !libssh2_userauth_authenticated(session))
        return refused(session, "auth", libssh2_session_last_errno(session));
    LIBSSH2_SFTP *sftp = libssh2_sftp_init(session);
    if(!sftp)
        return refused(session, "sftp", libssh2_session_last_errno(session));
    int rc;
    if(strcmp(function, "open") == 0) {
        LIBSSH2_SFTP_HANDLE *h = libssh2_sftp_open_ex(sftp, name, huge, LIBSSH2_FXF_READ, 0, LIBSSH2_SFTP_OPENFILE);
        rc = h ? 0 : libssh2_session_last_errno(session);
        if(h)
            libssh2_sftp_close_handle(h);
    }
    else if(strcmp(function, "unlink") == 0)
        rc = libssh2_sftp_unlink_ex(sftp, name, huge);
    else if(strcmp(function, "rename") == 0)
        rc = libssh2_sftp_rename_ex(sftp, name, 4, name, huge, LIBSSH2_SFTP_RENAME_OVERWRITE);
    else if(strcmp(function, "mkdir") == 0)
        rc = libssh2_sftp_mkdir_ex(sftp, name, huge, 0755);
    else if(strcmp(function, "rmdir") == 0)
        rc = libssh2_sftp_rmdir_ex(sftp, name, huge);
    else if(strcmp(function, "stat") == 0)
        rc = libssh2_sftp_stat_ex(sftp, name, huge, LIBSSH2_SFTP_STAT, &attrs);
    else if(strcmp(function, "symlink") == 0)
        rc = libssh2_sftp_symlink_ex(sftp, name, 4, name, huge, LIBSSH2_SFTP_SYMLINK);
    else if(strcmp(function, "statvfs") == 0)
        rc = libssh2_sftp_statvfs(sftp, name, huge, &st);
    else {
        printf("sftp-long driver: no function %s\n", function);
        libssh2_sftp_shutdown(sftp);
        return 1;
    }
    int status;
    if(rc == LIBSSH2_ERROR_OUT_OF_BOUNDARY) {
        status = refused(session, "sftp-long", rc);
    }
    else {
        printf("sftp-long driver: %s with a name of 4 GiB - 3 gave rc=%d, not LIBSSH2_ERROR_OUT_OF_BOUNDARY\n",
               function, rc);
        status = 1;
    }
    libssh2_sftp_shutdown(sftp);
    return status;
}

/* Never called: the request is refused before any prompt is answered. */
static void kbd_no_answers(const char *name, int name_len, const char *instruction, int instruction_len,
                           int num_prompts, const LIBSSH2_USERAUTH_KBDINT_PROMPT *prompts,
                           LIBSSH2_USERAUTH_KBDINT_RESPONSE *responses, void **abstract)
{
    (void)name; (void)name_len; (void)instruction; (void)instruction_len;
    (void)num_prompts; (void)prompts; (void)responses; (void)abstract;
}

/* Keyboard-interactive with a user name length (4 GiB - 4) whose request size wraps 32 bits, on a 64-byte name:
   libssh2 must refuse it with LIBSSH2_ERROR_OUT_OF_BOUNDARY before allocating or sending anything. */
static int run_kbd_long(LIBSSH2_SESSION *session)
{
    static char name[64] = "essh";
    int rc = libssh2_userauth_keyboard_interactive_ex(session, name, 0xFFFFFFFCu, kbd_no_answers);
    if(rc == LIBSSH2_ERROR_OUT_OF_BOUNDARY)
        return refused(session, "kbd-long", rc);
    printf("kbd-long driver: a user name of 4 GiB - 4 gave rc=%d, not LIBSSH2_ERROR_OUT_OF_BOUNDARY\n", rc);
    return 1;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Login, a session channel with stderr ignored, exec; then the window adjustment for the ignored stderr made to block
   (see the header), one retry, and the session freed while suspended. */
static int run_ignore(LIBSSH2_SESSION *session, int sock)
{
    const char *user = "essh";
    char buf[4096];
    char *methods = libssh2_userauth_list(session, user, (unsigned int)strlen(user));
    if(!methods && !libssh2_userauth_authenticated(session))
        return refused(session, "auth", libssh2_session_last_errno(session));
    LIBSSH2_CHANNEL *channel = libssh2_channel_open_ex(session, "session", 7, 2 * 1024 * 1024, 32768, NULL, 0);
    if(!channel)
        return refused(session, "ignore", libssh2_session_last_errno(session));
    libssh2_channel_handle_extended_data2(channel, LIBSSH2_CHANNEL_EXTENDED_DATA_IGNORE);
    int rc = libssh2_channel_process_startup(channel, "exec", 4, "true", 4);
    if(rc)
        return refused(session, "ignore", rc);
    libssh2_session_set_blocking(session, 0);
    /* fill the send buffer: the server reads nothing more, so these bytes are never parsed */
    int small = 4096;
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
    /* on exit (or a crash) reset the connection: the server, which reads nothing more, sees the hang-up at once
       instead of behind unsent bytes */
    struct linger reset = { 1, 0 };
    setsockopt(sock, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
    memset(buf, 0, sizeof(buf));
    double deadline = now_seconds() + 10;
    /* full means: send() refuses, and the socket stays unwritable for 100 ms (the kernel moving queued bytes into
       the server's receive buffer can free room after a first refusal) */
    for(;;) {
        ssize_t n = send(sock, buf, sizeof(buf), MSG_DONTWAIT | MSG_NOSIGNAL);
        if(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd out = { sock, POLLOUT, 0 };
            if(poll(&out, 1, 100) == 0)
                break;
            continue;
        }
        if(n < 0 || now_seconds() > deadline) {
            printf("ignore driver: could not fill the socket (%s)\n", n < 0 ? strerror(errno) : "deadline");
            return 1;
        }
    }
    /* read until libssh2 is suspended in the window adjustment for the ignored stderr: EAGAIN, blocked outbound */
    int retries = 0;
    for(;;) {
        ssize_t n = libssh2_channel_read_ex(channel, 0, buf, sizeof(buf));
        if(n == LIBSSH2_ERROR_EAGAIN && (libssh2_session_block_directions(session) & LIBSSH2_SESSION_BLOCK_OUTBOUND))
            break;
        if(n < 0 && n != LIBSSH2_ERROR_EAGAIN)
            return refused(session, "ignore", (int)n);
        if(now_seconds() > deadline) {
            printf("ignore driver: libssh2 never blocked sending (deadline)\n");
            return 1;
        }
        struct pollfd pfd = { sock, POLLIN, 0 };
        poll(&pfd, 1, 100);
        retries++;
    }
    /* the retry: libssh2 takes up the suspended packet again */
    ssize_t n = libssh2_channel_read_ex(channel, 0, buf, sizeof(buf));
    if(n < 0 && n != LIBSSH2_ERROR_EAGAIN)
        return refused(session, "ignore", (int)n);
    printf("ignore ok retries=%d\n", retries);
    /* main's libssh2_session_free returns EAGAIN here (closing the channel would block: the server reads nothing),
       so the session is left allocated: the runner keeps LeakSanitizer off for this case */
    return 0;
}

/* the second argument names a mode rather than kex methods */
static int is_mode(const char *arg)
{
    return strcmp(arg, "exec") == 0 || strcmp(arg, "sftp") == 0 || strcmp(arg, "key") == 0
           || strcmp(arg, "ignore") == 0 || strcmp(arg, "sftp-long") == 0
           || strcmp(arg, "kbd-long") == 0;
}

int main(int argc, char **argv)
{
    if(argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s PORT [kex-methods [cipher-methods]] | PORT exec|sftp|ignore | PORT key FILE\n",
                argv[0]);
        return 1;
    }
    int port = atoi(argv[1]);
    if(port <= 0 || port > 65535) {
        fprintf(stderr, "hostile-client: bad port %s\n", argv[1]);
        return 1;
    }
    if(libssh2_init(0) != 0) {
        fprintf(stderr, "hostile-client: libssh2_init failed\n");
        return 1;
    }
    int sock = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sin;
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_port = htons((unsigned short)port);
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if(sock < 0 || connect(sock, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
        perror("hostile-client: connect");
        return 1;
    }
    LIBSSH2_SESSION *session = libssh2_session_init_ex(NULL, NULL, NULL, NULL);
    if(!session) {
        fprintf(stderr, "hostile-client: libssh2_session_init_ex failed\n");
        return 1;
    }
    libssh2_session_set_blocking(session, 1);
    libssh2_session_set_timeout(session, 10000);
    if(argc > 2 && argv[2][0] && !is_mode(argv[2])
       && libssh2_session_method_pref(session, LIBSSH2_METHOD_KEX, argv[2]) != 0) {
        fprintf(stderr, "hostile-client: kex preference %s refused\n", argv[2]);
        return 1;
    }
    if(argc > 3 && argv[3][0] && !is_mode(argv[2])
       && (libssh2_session_method_pref(session, LIBSSH2_METHOD_CRYPT_CS, argv[3]) != 0
           || libssh2_session_method_pref(session, LIBSSH2_METHOD_CRYPT_SC, argv[3]) != 0)) {
        fprintf(stderr, "hostile-client: cipher preference %s refused\n", argv[3]);
        return 1;
    }
    int key_mode = argc == 4 && strcmp(argv[2], "key") == 0;
    int ignore_mode = argc == 3 && strcmp(argv[2], "ignore") == 0;
    int exec_mode = argc == 3 && strcmp(argv[2], "exec") == 0;
    int sftp_mode = argc == 3 && strcmp(argv[2], "sftp") == 0;
    int sftp_long_mode = argc == 4 && strcmp(argv[2], "sftp-long") == 0;
    int kbd_long_mode = argc == 3 && strcmp(argv[2], "kbd-long") == 0;
    int rc = libssh2_session_handshake(session, sock);
    int status;
    if(rc == 0 && exec_mode) {
        status = run_exec(session);
    }
    else if(rc == 0 && sftp_mode) {
        status = run_sftp(session);
    }
    else if(rc == 0 && kbd_long_mode) {
        status = run_kbd_long(session);
    }
    else if(rc == 0 && sftp_long_mode) {
        status = run_sftp_long(session, argv[3]);
    }
    else if(rc == 0 && ignore_mode) {
        status = run_ignore(session, sock);
    }
    else if(rc == 0 && key_mode) {
        rc = libssh2_userauth_publickey_fromfile_ex(session, "essh", 4, NULL, argv[3], NULL);
        if(rc == 0) {
            printf("key ok\n");
            status = 0;
        }
        else {
            status = refused(session, "key", rc);
        }
    }
    else if(rc == 0) {
        printf("handshake ok\n");
        status = 0;
    }
    else {
        char *msg = NULL;
        libssh2_session_last_error(session, &msg, NULL, 0);
        printf("handshake refused rc=%d: %s\n", rc, msg ? msg : "");
        status = 2;
    }
    fflush(stdout);
    libssh2_session_free(session);
    close(sock);
    libssh2_exit();
    return status;
}
