/* File plumbing of the bellperson format readers/writers: read-only mapping and the
 * atomic (temporary file + fsync + rename) writer; contracts in bp_internal.h. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groth16/bp_internal.h"

cuzk_status bp_map_file(const char *path, const uint8_t **buf, uint64_t *len, cuzk_error *err)
{
    *buf = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: fstat: %s", path, strerror(e));
    }
    if (sb.st_size <= 0) {
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: the file is empty (0 bytes at offset 0)", path);
    }
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (m == MAP_FAILED)
        return cuzk_fail(err, CUZK_E_IO, "%s: mmap of %llu bytes: %s", path, (unsigned long long)sb.st_size,
                         strerror(e));
    *buf = m;
    *len = (uint64_t)sb.st_size;
    return CUZK_OK;
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

cuzk_status bp_write_atomic(const char *path, int (*emit)(FILE *f, const void *ctx), const void *ctx,
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
    fchmod(fd, 0644); /* mkstemp creates 0600; parameter files are meant to be shared */
    FILE *f = fdopen(fd, "wb");
    int failed = 0;
    if (!f) {
        failed = errno ? errno : EIO;
        close(fd);
    } else {
        char *iobuf = malloc(1 << 20);
        if (iobuf)
            setvbuf(f, iobuf, _IOFBF, 1 << 20);
        failed = emit(f, ctx);
        if (!failed && fflush(f) != 0)
            failed = errno ? errno : EIO;
        if (!failed && fsync(fileno(f)) != 0)
            failed = errno ? errno : EIO;
        if (fclose(f) != 0 && !failed)
            failed = errno ? errno : EIO;
        free(iobuf);
    }
    if (!failed && rename(tmp, path) != 0)
        failed = errno ? errno : EIO;
    if (failed) {
        unlink(tmp);
        free(tmp);
        return cuzk_fail(err, CUZK_E_IO, "%s: write failed: %s", path, strerror(failed));
    }
    free(tmp);
    sync_dir(path);
    return CUZK_OK;
}
