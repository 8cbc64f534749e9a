/* Read-only file mapping and the atomic (temporary file + fsync + rename) writer;
 * contracts in file_io.h. */
#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WRITE_BUFFER_BYTES (1u << 20)

/* What a non-regular file is, for messages. */
static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO or pipe" : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* open(2) for reading that never blocks (a FIFO without a writer would block a plain
 * open forever), then fstat. Returns the descriptor, or -1 with *err filled. */
static int open_input(const char *path, struct stat *st, cuzk_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        cuzk_fail(err, CUZK_E_IO, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        cuzk_fail(err, CUZK_E_IO, "%s: cannot stat: %s", path, strerror(e));
        return -1;
    }
    return fd;
}

cuzk_status cuzk_file_map(cuzk_mapped_file *f, const char *path, cuzk_error *err)
{
    f->data = NULL;
    f->len = 0;
    struct stat st;
    int fd = open_input(path, &st, err);
    if (fd < 0)
        return CUZK_E_IO; /* open_input filled err */
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: not a regular file (%s); this format is read from a regular file",
                         path, file_kind(st.st_mode));
    }
    if (st.st_size == 0) {
        close(fd);
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: the file is empty (0 bytes at offset 0)", path);
    }
    void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED)
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot map %lld bytes: %s", path, (long long)st.st_size,
                         strerror(e));
    f->data = m;
    f->len = (size_t)st.st_size;
    return CUZK_OK;
}

cuzk_status cuzk_file_read(const char *path, size_t max_bytes, bool allow_stream, char **out, size_t *len,
                           cuzk_error *err)
{
    *out = NULL;
    *len = 0;
    struct stat st;
    int fd = open_input(path, &st, err);
    if (fd < 0)
        return CUZK_E_IO; /* open_input filled err */
    bool stream = S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode);
    if (!S_ISREG(st.st_mode) && !(stream && allow_stream)) {
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
    }
    if (!stream && (uint64_t)st.st_size > max_bytes) {
        close(fd);
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: %lld bytes, more than the limit of %zu bytes", path,
                         (long long)st.st_size, max_bytes);
    }
    /* Blocking reads from here on: a pipe's writer may be slower than us. */
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
        int e = errno;
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: fcntl: %s", path, strerror(e));
    }
    size_t cap = stream ? 65536 : (size_t)st.st_size + 2, n = 0; /* + NUL + the read that sees EOF */
    char *buf = malloc(cap);
    cuzk_status rc = buf ? CUZK_OK : cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    while (!rc) {
        if (n + 1 == cap) {
            size_t ncap = cap > max_bytes / 2 ? max_bytes + 2 : cap * 2;
            char *nb = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nb) {
                rc = cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
                break;
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = cuzk_fail(err, CUZK_E_IO, "%s: read: %s", path, strerror(errno));
        else if (r == 0)
            break;
        else if ((n += (size_t)r) > max_bytes)
            rc = cuzk_fail(err, CUZK_E_FORMAT, "%s: more than the limit of %zu bytes", path, max_bytes);
    }
    close(fd);
    if (!rc && n == 0 && S_ISFIFO(st.st_mode))
        rc = cuzk_fail(err, CUZK_E_IO, "%s: nothing to read from a FIFO or pipe (no process writes to it)", path);
    if (rc) {
        free(buf);
        return rc;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return CUZK_OK;
}

void cuzk_file_unmap(cuzk_mapped_file *f)
{
    if (f->data)
        munmap((void *)f->data, f->len);
    f->data = NULL;
    f->len = 0;
}

/* Permission bits for the new file: those of the file it replaces, else 0666 & ~umask. */
static mode_t target_mode(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return st.st_mode & 07777;
    unsigned mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &mask) == 1)
                break;
        fclose(f);
    }
    return 0666 & ~(mode_t)mask;
}

/* fsync the directory holding `path` so the rename itself is durable (best effort). */
static void sync_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return;
    int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/* errno after a failed call, never 0. */
static int last_errno(void) { return errno ? errno : EIO; }

static bool no_space_errno(int e) { return e == ENOSPC || e == EDQUOT || e == EFBIG; }

/* The directory part of `path` ("." for a bare name) into buf. */
static const char *dir_of(const char *path, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", path);
    return dirname(buf);
}

cuzk_status cuzk_reserve_space(int fd, uint64_t bytes, const char *path, cuzk_error *err)
{
    if (bytes == 0)
        return CUZK_OK;
    if (bytes > (uint64_t)INT64_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: %llu bytes is beyond any file size", path,
                         (unsigned long long)bytes);
    int e = posix_fallocate(fd, 0, (off_t)bytes);
    if (e == 0 || e == EOPNOTSUPP || e == EINVAL) /* reserved, or a file system that cannot say */
        return CUZK_OK;
    char dir[PATH_MAX];
    if (no_space_errno(e))
        return cuzk_fail(err, CUZK_E_IO, "%s: no space left on device, %llu bytes needed in %s", path,
                         (unsigned long long)bytes, dir_of(path, dir, sizeof dir));
    return cuzk_fail(err, CUZK_E_IO, "%s: cannot reserve %llu bytes: %s", path, (unsigned long long)bytes, strerror(e));
}

/* Run emit on the open temporary file fd and make its bytes durable; closes fd. Returns 0
 * or an errno; *what names the failed step. `reserved` bytes were allocated beforehand: a
 * shorter output is truncated to what emit wrote. */
static int fill_and_sync(int fd, uint64_t reserved, int (*emit)(FILE *, const void *), const void *ctx,
                         const char **what)
{
    FILE *out = fdopen(fd, "wb");
    if (!out) {
        int e = last_errno();
        close(fd);
        *what = "fdopen";
        return e;
    }
    char *iobuf = malloc(WRITE_BUFFER_BYTES);
    if (iobuf)
        setvbuf(out, iobuf, _IOFBF, WRITE_BUFFER_BYTES);
    *what = "write failed";
    int e = emit(out, ctx);
    if (!e && fflush(out) != 0)
        e = last_errno();
    if (!e && reserved) {
        off_t end = ftello(out);
        if (end < 0 || ((uint64_t)end != reserved && ftruncate(fileno(out), end) != 0))
            e = last_errno();
    }
    if (!e && fsync(fileno(out)) != 0)
        e = last_errno();
    if (fclose(out) != 0 && !e)
        e = last_errno();
    free(iobuf);
    return e;
}

/* The path to replace: `path` itself, or the file a symbolic link at `path` points to
 * (so a link is written through, not replaced). Refuses existing non-regular files:
 * devices, FIFOs, sockets and directories must not be swapped for a regular file. */
static cuzk_status resolve_target(const char *path, char **out, cuzk_error *err)
{
    struct stat st;
    *out = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *real = realpath(path, NULL);
        if (!real)
            return cuzk_fail(err, CUZK_E_IO, "%s: cannot resolve the symbolic link: %s", path, strerror(errno));
        *out = real;
    } else {
        *out = strdup(path);
        if (!*out)
            return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    }
    if (stat(*out, &st) == 0 && !S_ISREG(st.st_mode)) {
        free(*out);
        *out = NULL;
        return cuzk_fail(err, CUZK_E_IO, "%s: refusing to replace something that is not a regular file", path);
    }
    return CUZK_OK;
}

/* Temporary files being written, for the signal handler of cuzk_write_cleanup_on_signals.
 * A slot owns a copy of the name; whoever exchanges it out (deregistration or the handler)
 * owns it then, so the handler never sees freed memory. Full slots just go untracked. */
#define LIVE_TMP_SLOTS 16
static _Atomic(char *) live_tmp[LIVE_TMP_SLOTS];
static const int CLEANUP_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};

/* Track `tmp`; returns the slot or -1 (untracked). */
static int live_add(const char *tmp)
{
    char *copy = strdup(tmp);
    for (int i = 0; copy && i < LIVE_TMP_SLOTS; i++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&live_tmp[i], &expected, copy))
            return i;
    }
    free(copy);
    return -1;
}

static void live_remove(int slot)
{
    if (slot >= 0)
        free(atomic_exchange(&live_tmp[slot], NULL));
}

static void cleanup_handler(int sig)
{
    for (int i = 0; i < LIVE_TMP_SLOTS; i++) {
        char *p = atomic_exchange(&live_tmp[i], NULL);
        if (p)
            unlink(p); /* async-signal-safe; p is left to the exiting process */
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void cuzk_write_cleanup_on_signals(void)
{
    for (size_t i = 0; i < sizeof CLEANUP_SIGNALS / sizeof CLEANUP_SIGNALS[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(CLEANUP_SIGNALS[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue; /* keep an ignored signal (nohup) or someone else's handler */
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = cleanup_handler;
        sigemptyset(&sa.sa_mask);
        sigaction(CLEANUP_SIGNALS[i], &sa, NULL);
    }
}

/* Block the cleanup signals in this thread (between creating and tracking a file). */
static void block_cleanup_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < sizeof CLEANUP_SIGNALS / sizeof CLEANUP_SIGNALS[0]; i++)
        sigaddset(&set, CLEANUP_SIGNALS[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

cuzk_status cuzk_write_stage(cuzk_staged_file *sf, const char *path, int (*emit)(FILE *out, const void *ctx),
                             const void *ctx, cuzk_error *err)
{
    return cuzk_write_stage_sized(sf, path, 0, emit, ctx, err);
}

cuzk_status cuzk_write_stage_sized(cuzk_staged_file *sf, const char *path, uint64_t size,
                                   int (*emit)(FILE *out, const void *ctx), const void *ctx, cuzk_error *err)
{
    static const char suffix[] = ".tmp.XXXXXX";
    sf->path = sf->tmp = NULL;
    sf->slot = -1;
    char *target;
    cuzk_status st = resolve_target(path, &target, err);
    if (st)
        return st;
    size_t plen = strlen(target);
    char *tmp = malloc(plen + sizeof suffix);
    if (!tmp) {
        free(target);
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    }
    memcpy(tmp, target, plen);
    memcpy(tmp + plen, suffix, sizeof suffix);
    sigset_t old_mask;
    block_cleanup_signals(&old_mask);
    int fd = mkstemp(tmp);
    int e = errno;
    int slot = fd >= 0 ? live_add(tmp) : -1;
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    if (fd < 0) {
        free(tmp);
        free(target);
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot create a temporary file: %s", path, strerror(e));
    }
    const char *what = "chmod of the temporary file";
    e = 0;
    if (fchmod(fd, target_mode(target)) != 0) {
        e = last_errno();
        close(fd);
    } else if ((st = cuzk_reserve_space(fd, size, path, err))) {
        close(fd);
        e = -1; /* reported */
    } else {
        e = fill_and_sync(fd, size, emit, ctx, &what);
    }
    if (e) {
        unlink(tmp);
        live_remove(slot);
        free(tmp);
        if (e < 0) {
            free(target);
            return st;
        }
        char dir[PATH_MAX];
        if (no_space_errno(e))
            st = cuzk_fail(err, CUZK_E_IO, "%s: no space left on device in %s (%s)", path,
                           dir_of(target, dir, sizeof dir), what);
        else
            st = cuzk_fail(err, CUZK_E_IO, "%s: %s: %s", path, what, strerror(e));
        free(target);
        return st;
    }
    sf->path = target;
    sf->tmp = tmp;
    sf->slot = slot;
    return CUZK_OK;
}

cuzk_status cuzk_write_commit(cuzk_staged_file *sf, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (rename(sf->tmp, sf->path) != 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: rename: %s", sf->path, strerror(last_errno()));
        unlink(sf->tmp);
    } else {
        sync_dir(sf->path);
    }
    live_remove(sf->slot);
    free(sf->tmp);
    free(sf->path);
    sf->tmp = sf->path = NULL;
    sf->slot = -1;
    return st;
}

void cuzk_write_abort(cuzk_staged_file *sf)
{
    if (sf->tmp) {
        unlink(sf->tmp);
        live_remove(sf->slot);
    }
    free(sf->tmp);
    free(sf->path);
    sf->tmp = sf->path = NULL;
    sf->slot = -1;
}

cuzk_status cuzk_write_atomic(const char *path, int (*emit)(FILE *out, const void *ctx), const void *ctx,
                              cuzk_error *err)
{
    return cuzk_write_atomic_sized(path, 0, emit, ctx, err);
}

cuzk_status cuzk_write_atomic_sized(const char *path, uint64_t size, int (*emit)(FILE *out, const void *ctx),
                                    const void *ctx, cuzk_error *err)
{
    cuzk_staged_file sf;
    cuzk_status st = cuzk_write_stage_sized(&sf, path, size, emit, ctx, err);
    return st ? st : cuzk_write_commit(&sf, err);
}

bool cuzk_same_file(const char *a, const char *b)
{
    char *ra = cuzk_canonical_path(a), *rb = cuzk_canonical_path(b);
    bool same = ra && rb && !strcmp(ra, rb);
    free(ra);
    free(rb);
    return same;
}

char *cuzk_canonical_path(const char *path)
{
    char *real = realpath(path, NULL);
    if (real)
        return real;
    /* not there yet: canonical directory + the last component */
    char *copy = strdup(path), *copy2 = strdup(path);
    char *out = NULL;
    if (copy && copy2) {
        char *dir = realpath(dirname(copy), NULL);
        const char *base = basename(copy2);
        if (dir) {
            size_t n = strlen(dir) + strlen(base) + 2;
            out = malloc(n);
            if (out)
                snprintf(out, n, "%s/%s", dir, base);
            free(dir);
        }
    }
    free(copy);
    free(copy2);
    return out;
}

cuzk_status cuzk_check_writable(const char *path, cuzk_error *err)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return cuzk_fail(err, CUZK_E_IO, "%s: exists and is not a regular file", path);
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot create a file beside it: %s", path, strerror(e));
    }
    close(fd);
    unlink(tmp);
    free(tmp);
    return CUZK_OK;
}

cuzk_status cuzk_ensure_dir(const char *dir, cuzk_error *err)
{
    char buf[PATH_MAX];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return cuzk_fail(err, CUZK_E_IO, "%.64s...: directory path longer than %d bytes", dir, PATH_MAX);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return cuzk_fail(err, CUZK_E_IO, "%s: mkdir: %s", buf, strerror(errno));
            *p = '/';
        }
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return cuzk_fail(err, CUZK_E_IO, "%s: mkdir: %s", buf, strerror(errno));
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode))
        return cuzk_fail(err, CUZK_E_IO, "%s: not a directory", buf);
    return CUZK_OK;
}
