/*
 * bufq-client: the native twin of shell/src/main/java/bufq/shell/server/Client.java.
 *
 * The launcher ./bufq runs it for batch runs while a resident server (bufq --server start) listens:
 * it hands argv, environment, working directory and stdin to the server and copies back output and
 * exit code. It starts in about a millisecond where the Java client's JVM takes 65-80 ms, which was
 * most of a run on a dump the server has parsed. Wire.java is the protocol's reference; this file
 * speaks it byte for byte. The launcher builds it on first use (C11, POSIX, pthreads only).
 *
 * Usage: bufq-client SOCKET BUILD_DIR -- ARGS...
 *   SOCKET     the server's socket (the launcher's $sock)
 *   BUILD_DIR  the directory of bufq.jar ($here/shell/target): with the jar's mtime it makes the
 *              build string a server of another build refuses
 *
 * Exits 200 when no server takes the run (the launcher then runs bufq itself), as Client.java does.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* realpath, st_mtim, MSG_NOSIGNAL under -std=c11 */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

extern char **environ;

enum { FALLBACK = 200, MAGIC = 0x62756671, VERSION = 1, MAX_FRAME = 1 << 20, BUF = 1 << 16 };

static int sock = -1;
static pthread_mutex_t sock_lock = PTHREAD_MUTEX_INITIALIZER;

/* Writes all of b; 0 on success, -1 with errno set. Retries on EINTR and partial writes, and
 * waits when the descriptor was left non-blocking by another program sharing the terminal. */
static int write_all(int fd, const void *b, size_t n) {
    const char *p = b;
    while (n > 0) {
        ssize_t w = fd == sock ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                struct pollfd pf = { .fd = fd, .events = POLLOUT };
                if (poll(&pf, 1, -1) >= 0 || errno == EINTR) continue;
            }
            return -1;
        }
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

/* "bufq: server connection failed: WHY", as Client.java prints a protocol error; exit 1. */
static int fail(const char *why) {
    char line[512];
    int n = snprintf(line, sizeof line, "bufq: server connection failed: %s\n", why);
    write_all(2, line, n < (int) sizeof line ? (size_t) n : sizeof line - 1);
    return 1;
}

/* ---- the request: a growable buffer of big-endian ints and length-prefixed strings ---- */

struct buf { char *p; size_t len, cap; };

static void put(struct buf *b, const void *p, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { fail("out of memory"); exit(1); }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, p, n);
    b->len += n;
}

static void put_int(struct buf *b, uint32_t v) {
    unsigned char be[4] = { v >> 24, v >> 16, v >> 8, v };
    put(b, be, 4);
}

static void put_bytes(struct buf *b, const char *s, size_t n) {
    put_int(b, (uint32_t) n);
    put(b, s, n);
}

static void put_str(struct buf *b, const char *s) { put_bytes(b, s, strlen(s)); }

/* ---- reading frames from the socket, buffered ---- */

static unsigned char in_buf[BUF];
static size_t in_pos, in_len;

/* Fills b with n bytes. 1 on success, 0 at end of stream, -1 on a read error (errno set). */
static int read_full(void *b, size_t n) {
    unsigned char *p = b;
    while (n > 0) {
        if (in_pos == in_len) {
            ssize_t r = read(sock, in_buf, sizeof in_buf);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) return (int) r;
            in_pos = 0;
            in_len = (size_t) r;
        }
        size_t k = in_len - in_pos < n ? in_len - in_pos : n;
        memcpy(p, in_buf + in_pos, k);
        in_pos += k;
        p += k;
        n -= k;
    }
    return 1;
}

static uint32_t be32(const unsigned char *b) {
    return (uint32_t) b[0] << 24 | (uint32_t) b[1] << 16 | (uint32_t) b[2] << 8 | b[3];
}

/* ---- stdin, sent on a thread of its own after NEED_INPUT so output keeps flowing ---- */

static void *pump(void *unused) {
    (void) unused;
    static unsigned char chunk[4 + BUF];
    for (;;) {
        ssize_t r = read(0, chunk + 4, BUF);
        if (r < 0 && errno == EINTR) continue;
        /* A read error ends input as end of file does: the server must not wait forever. */
        uint32_t n = r > 0 ? (uint32_t) r : UINT32_MAX;
        chunk[0] = n >> 24; chunk[1] = n >> 16; chunk[2] = n >> 8; chunk[3] = n;
        pthread_mutex_lock(&sock_lock);
        int ok = write_all(sock, chunk, 4 + (r > 0 ? (size_t) r : 0)) == 0;
        pthread_mutex_unlock(&sock_lock);
        if (!ok || r <= 0) return NULL;   /* the run ended (socket closed), or the input did */
    }
}

/* ---- the checks Client.run makes before it connects ---- */

/* A directory owned by us that nobody else can write: a socket in it is ours (Wire.isPrivate). */
static int is_private(const char *dir) {
    struct stat st;
    return lstat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid()
           && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* Wire.build: the real path of the jar's directory (the JVM resolves class path entries with
 * toRealPath, so the server's string is real), "@", bufq.jar's mtime in ms (0 if missing). */
static void build_string(const char *dir, char *out, size_t size) {
    char real[PATH_MAX], jar[PATH_MAX + 16];
    if (!realpath(dir, real)) snprintf(real, sizeof real, "%s", dir);
    snprintf(jar, sizeof jar, "%s/bufq.jar", real);
    struct stat st;
    long long ms = stat(jar, &st) == 0 ? (long long) st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000 : 0;
    snprintf(out, size, "%s@%lld", real, ms);
}

int main(int argc, char **argv) {
    if (argc < 4 || strcmp(argv[3], "--") != 0) {
        static const char usage[] = "usage: bufq-client SOCKET BUILD_DIR -- ARGS...\n";
        write_all(2, usage, sizeof usage - 1);
        return 2;
    }
    const char *path = argv[1];
    /* Before anything is opened: a closed stdin (<&-) is told to the server (read nothing), and
     * descriptors 0-2 are held by /dev/null so the socket never takes one of them. */
    int stdin_closed = fcntl(0, F_GETFD) < 0 && errno == EBADF;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
            int d = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (d >= 0 && d != fd) { dup2(d, fd); close(d); }
        }
    }
    /* Writes to a reader that is gone fail with EPIPE and are ignored; the run still drains. */
    signal(SIGPIPE, SIG_IGN);

    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) strcpy(dir, ".");   /* a bare name lives in the working directory, as for Java */
    else if (slash == dir) slash[1] = '\0';
    else *slash = '\0';
    struct stat st;
    if (!is_private(dir) || stat(path, &st) != 0) return FALLBACK;

    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof addr.sun_path) return FALLBACK;
    strcpy(addr.sun_path, path);
    sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (sock < 0) return FALLBACK;
    if (connect(sock, (struct sockaddr *) &addr, sizeof addr) < 0) return FALLBACK;   /* a socket left by a server that died */

    char build[PATH_MAX + 32], cwd[PATH_MAX];
    build_string(argv[2], build, sizeof build);
    if (!getcwd(cwd, sizeof cwd)) return fail("cannot read the working directory");

    struct buf req = { 0 };
    put_int(&req, MAGIC);
    put_int(&req, VERSION);
    put_str(&req, "run");
    put_str(&req, build);
    put_str(&req, cwd);
    size_t nenv = 0;
    for (char **e = environ; *e; e++) if (strchr(*e, '=')) nenv++;
    put_int(&req, (uint32_t) nenv);
    /* Last to first: the server keeps the last of duplicate names, the JVM's getenv the first. */
    char **end = environ;
    while (*end) end++;
    for (char **e = end; e-- > environ;) {
        char *eq = strchr(*e, '=');
        if (!eq) continue;
        put_bytes(&req, *e, (size_t) (eq - *e));
        put_str(&req, eq + 1);
    }
    unsigned char closed = stdin_closed ? 1 : 0;
    put(&req, &closed, 1);
    put_int(&req, (uint32_t) (argc - 4));
    for (int i = 4; i < argc; i++) put_str(&req, argv[i]);
    if (write_all(sock, req.p, req.len) != 0) return fail(strerror(errno));
    free(req.p);

    static unsigned char frame[MAX_FRAME];
    int wrote_anything = 0, out_ok = 1, err_ok = 1, pumping = 0;
    for (;;) {
        unsigned char type, len[4];
        int r = read_full(&type, 1);
        if (r <= 0) {
            if (!wrote_anything) return FALLBACK;
            char line[PATH_MAX + 64];
            int n = snprintf(line, sizeof line, "bufq: lost the connection to the server (%s)\n", path);
            write_all(2, line, n < (int) sizeof line ? (size_t) n : sizeof line - 1);
            return 1;
        }
        if ((r = read_full(len, 4)) <= 0) return fail(r < 0 ? strerror(errno) : "connection closed");
        uint32_t n = be32(len);
        if (n > MAX_FRAME) {
            char why[64];
            snprintf(why, sizeof why, "bad frame length %d", (int32_t) n);
            return fail(why);
        }
        if (n > 0 && (r = read_full(frame, n)) <= 0) return fail(r < 0 ? strerror(errno) : "connection closed");
        switch (type) {
        case 'O':
            if (out_ok && write_all(1, frame, n) != 0) out_ok = 0;
            wrote_anything = 1;
            break;
        case 'E':
            if (err_ok && write_all(2, frame, n) != 0) err_ok = 0;
            wrote_anything = 1;
            break;
        case 'I':
            if (!pumping) {
                pthread_t t;
                pthread_attr_t attr;
                pthread_attr_init(&attr);
                pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
                pumping = pthread_create(&t, &attr, pump, NULL) == 0;
                pthread_attr_destroy(&attr);
                if (!pumping) return fail("cannot start the stdin thread");
            }
            break;
        case 'R':
            return FALLBACK;
        case 'X':
            if (n < 4) return fail("bad exit frame");
            /* exit() with the stdin thread maybe blocked in read: the process ends all the same. */
            return (int) be32(frame);
        default: {
            char why[64];
            snprintf(why, sizeof why, "unknown frame type %d", (int) (signed char) type);
            return fail(why);
        }
        }
    }
}
