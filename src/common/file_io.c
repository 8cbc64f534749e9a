/* Read-only file mapping and the atomic (temporary file + fsync + rename) writer;
 * contracts in file_io.h. */
#include "common/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define WRITE_BUFFER_BYTES (1u << 20)

cuzk_status cuzk_file_map(cuzk_mapped_file *f, const char *path, cuzk_error *err)
{
    f->data = NULL;
    f->len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: not a regular file", path);
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

/* Run emit on the open temporary file fd and make its bytes durable; closes fd. Returns 0
 * or an errno; *what names the failed step. */
static int fill_and_sync(int fd, int (*emit)(FILE *, const void *), const void *ctx, const char **what)
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

cuzk_status cuzk_write_stage(cuzk_staged_file *sf, const char *path, int (*emit)(FILE *out, const void *ctx),
                             const void *ctx, cuzk_error *err)
{
    static const char suffix[] = ".tmp.XXXXXX";
    sf->path = sf->tmp = NULL;
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
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        free(target);
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot create a temporary file: %s", path, strerror(e));
    }
    const char *what = "chmod of the temporary file";
    int e = 0;
    if (fchmod(fd, target_mode(target)) != 0) {
        e = last_errno();
        close(fd);
    } else {
        e = fill_and_sync(fd, emit, ctx, &what);
    }
    if (e) {
        unlink(tmp);
        free(tmp);
        free(target);
        return cuzk_fail(err, CUZK_E_IO, "%s: %s: %s", path, what, strerror(e));
    }
    sf->path = target;
    sf->tmp = tmp;
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
    free(sf->tmp);
    free(sf->path);
    sf->tmp = sf->path = NULL;
    return st;
}

void cuzk_write_abort(cuzk_staged_file *sf)
{
    if (sf->tmp)
        unlink(sf->tmp);
    free(sf->tmp);
    free(sf->path);
    sf->tmp = sf->path = NULL;
}

cuzk_status cuzk_write_atomic(const char *path, int (*emit)(FILE *out, const void *ctx), const void *ctx,
                              cuzk_error *err)
{
    cuzk_staged_file sf;
    cuzk_status st = cuzk_write_stage(&sf, path, emit, ctx, err);
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
