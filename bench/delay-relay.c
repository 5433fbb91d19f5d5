/*
 * delay-relay: a TCP relay on loopback that adds a fixed delay in each direction, for the copy benchmark at a
 * 25 ms round trip (this kernel has no netem: `tc qdisc add ... netem` says "Specified qdisc kind is unknown").
 *
 *   delay-relay LISTEN-PORT TARGET-PORT ONE-WAY-MS [QUEUE-MIB]
 *
 * Listens on 127.0.0.1:LISTEN-PORT; each connection gets its own connection to 127.0.0.1:TARGET-PORT. Each
 * direction has a reader thread and a writer thread. The reader reads what arrives (at most 64 KiB at a time),
 * stamps it "due at now + ONE-WAY-MS" and queues it; the writer writes each chunk, in order, once it is due. A
 * direction holds at most QUEUE-MIB (default 64) MiB; a full queue stops the reader, so a slow receiver slows the
 * sender as a real link would. End of input is passed on (shutdown SHUT_WR) once everything before it has been
 * written; an error on either side ends both directions of that connection.
 *
 * What it models: the round trip every SSH and SFTP exchange sees (channel window adjusts, SFTP requests and their
 * acknowledgements) is 2 x ONE-WAY-MS. What it does not: TCP on each side of the relay runs over loopback with no
 * delay, so TCP's own window and congestion control never see the round trip; bandwidth and loss are not limited.
 * Build: cc -O2 -pthread -o delay-relay delay-relay.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { CHUNK = 64 * 1024 };

struct chunk {
    struct chunk *next;
    struct timespec due;
    size_t length; /* 0: end of input */
    unsigned char data[];
};

struct direction {
    int from, to;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    struct chunk *head, *tail;
    size_t queued;
    struct connection *connection;
};

struct connection {
    struct direction up, down; /* up: client -> target; down: target -> client */
    int client, target;
    pthread_mutex_t lock;
    int finished; /* writer threads done; the last one closes both sockets */
};

static long delay_ns;
static size_t queue_limit;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static void add_ns(struct timespec *t, long ns) {
    t->tv_nsec += ns % 1000000000L;
    t->tv_sec += ns / 1000000000L + t->tv_nsec / 1000000000L;
    t->tv_nsec %= 1000000000L;
}

static void push(struct direction *d, struct chunk *c) {
    pthread_mutex_lock(&d->lock);
    /* The end-of-input marker always fits; data waits for room (one chunk may overshoot the limit). */
    while (c->length > 0 && d->queued >= queue_limit) pthread_cond_wait(&d->changed, &d->lock);
    clock_gettime(CLOCK_MONOTONIC, &c->due);
    add_ns(&c->due, delay_ns);
    c->next = NULL;
    if (d->tail) d->tail->next = c; else d->head = c;
    d->tail = c;
    d->queued += c->length;
    pthread_cond_broadcast(&d->changed);
    pthread_mutex_unlock(&d->lock);
}

static void *reader(void *arg) {
    struct direction *d = arg;
    for (;;) {
        struct chunk *c = malloc(sizeof *c + CHUNK);
        if (!c) fail("malloc");
        ssize_t n = read(d->from, c->data, CHUNK);
        if (n < 0 && errno == EINTR) { free(c); continue; }
        c->length = n > 0 ? (size_t)n : 0;
        if (c->length < CHUNK) {
            struct chunk *smaller = realloc(c, sizeof *c + c->length);
            if (smaller) c = smaller;
        }
        push(d, c);
        if (n <= 0) return NULL;
    }
}

static int write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void finish(struct connection *k) {
    pthread_mutex_lock(&k->lock);
    int last = ++k->finished == 2;
    pthread_mutex_unlock(&k->lock);
    if (!last) return;
    /* Both writers are done; both readers have seen end of input (a writer leaves only after the marker). */
    close(k->client);
    close(k->target);
    free(k);
}

static void *writer(void *arg) {
    struct direction *d = arg;
    int broken = 0;
    for (;;) {
        pthread_mutex_lock(&d->lock);
        while (!d->head) pthread_cond_wait(&d->changed, &d->lock);
        struct chunk *c = d->head;
        pthread_mutex_unlock(&d->lock);
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &c->due, NULL) == EINTR) {}
        size_t length = c->length;
        if (length == 0) {
            if (!broken) shutdown(d->to, SHUT_WR);
        } else if (!broken && write_all(d->to, c->data, length) != 0) {
            /* The receiver is gone: end both directions; what is still queued is dropped. */
            broken = 1;
            shutdown(d->to, SHUT_RDWR);
            shutdown(d->from, SHUT_RDWR);
        }
        pthread_mutex_lock(&d->lock);
        d->head = c->next;
        if (!d->head) d->tail = NULL;
        d->queued -= length;
        pthread_cond_broadcast(&d->changed);
        pthread_mutex_unlock(&d->lock);
        free(c);
        if (length == 0) break;
    }
    finish(d->connection);
    return NULL;
}

static void start(pthread_t *t, void *(*f)(void *), void *arg) {
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&a, 256 * 1024);
    if (pthread_create(t, &a, f, arg) != 0) fail("pthread_create");
    pthread_attr_destroy(&a);
}

static void init_direction(struct direction *d, struct connection *k, int from, int to) {
    memset(d, 0, sizeof *d);
    d->from = from;
    d->to = to;
    d->connection = k;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->changed, NULL);
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((uint16_t)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: delay-relay LISTEN-PORT TARGET-PORT ONE-WAY-MS [QUEUE-MIB]\n");
        return 64;
    }
    int listen_port = atoi(argv[1]), target_port = atoi(argv[2]);
    double ms = atof(argv[3]);
    queue_limit = (size_t)(argc == 5 ? atoi(argv[4]) : 64) * 1024 * 1024;
    if (listen_port <= 0 || listen_port > 65535 || target_port <= 0 || target_port > 65535 || ms < 0 ||
        queue_limit == 0) {
        fprintf(stderr, "delay-relay: ports must be 1-65535, the delay at least 0 ms, the queue at least 1 MiB\n");
        return 64;
    }
    delay_ns = (long)(ms * 1e6);
    signal(SIGPIPE, SIG_IGN);

    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) fail("socket");
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = loopback(listen_port);
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0) fail("bind");
    if (listen(s, 128) != 0) fail("listen");
    fprintf(stderr, "delay-relay: 127.0.0.1:%d -> 127.0.0.1:%d, %.3f ms each way, %zu MiB queue per direction\n",
            listen_port, target_port, ms, queue_limit >> 20);

    for (;;) {
        int client = accept(s, NULL, NULL);
        if (client < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            fail("accept");
        }
        int target = socket(AF_INET, SOCK_STREAM, 0);
        struct sockaddr_in t = loopback(target_port);
        if (target < 0 || connect(target, (struct sockaddr *)&t, sizeof t) != 0) {
            perror("delay-relay: connect to target");
            if (target >= 0) close(target);
            close(client);
            continue;
        }
        setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        setsockopt(target, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct connection *k = calloc(1, sizeof *k);
        if (!k) fail("calloc");
        k->client = client;
        k->target = target;
        pthread_mutex_init(&k->lock, NULL);
        init_direction(&k->up, k, client, target);
        init_direction(&k->down, k, target, client);
        pthread_t ids[4];
        start(&ids[0], writer, &k->up);
        start(&ids[1], writer, &k->down);
        start(&ids[2], reader, &k->up);
        start(&ids[3], reader, &k->down);
    }
}
