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

cuzk_status cuzk_write_atomic(const char *path, int (*emit)(FILE *out, const void *ctx), const void *ctx,
                              cuzk_error *err)
{
    static const char suffix[] = ".tmp.XXXXXX";
    size_t plen = strlen(path);
    char *tmp = malloc(plen + sizeof suffix);
    if (!tmp)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, suffix, sizeof suffix);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot create a temporary file: %s", path, strerror(e));
    }
    const char *what = "chmod of the temporary file";
    int e = 0;
    if (fchmod(fd, target_mode(path)) != 0) {
        e = last_errno();
        close(fd);
    } else {
        e = fill_and_sync(fd, emit, ctx, &what);
    }
    if (!e && rename(tmp, path) != 0) {
        e = last_errno();
        what = "rename";
    }
    if (e) {
        unlink(tmp);
        free(tmp);
        return cuzk_fail(err, CUZK_E_IO, "%s: %s: %s", path, what, strerror(e));
    }
    free(tmp);
    sync_dir(path);
    return CUZK_OK;
}
