/* Whole-file I/O shared by the format readers and writers of every layer: a read-only
 * mapping of a file, and an atomic replace-by-rename writer.
 *
 * Source: POSIX mmap(2), mkstemp(3), rename(2) (atomic within one file system) and fsync(2)
 * of the file and of its directory, the usual durable-replace recipe (e.g. LWN "Ensuring
 * data reaches disk", 2011).
 *
 * Thread-safety: every function works on caller-owned data only; concurrent writers of the
 * same path each get their own temporary file and the last rename wins.
 */
#ifndef CUZK_COMMON_FILE_IO_H
#define CUZK_COMMON_FILE_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/status.h"

/* A whole regular file mapped read-only (MAP_PRIVATE): bytes data[0 .. len), len > 0.
 * Owned by the caller; release with cuzk_file_unmap. */
typedef struct {
    const uint8_t *data;
    size_t len;
} cuzk_mapped_file;

/* Map the whole of `path` read-only. On success *f holds the mapping; on error *f is
 * {NULL, 0}. Errors: CUZK_E_IO (open, fstat, mmap, or not a regular file; the message
 * names the path and gives strerror), CUZK_E_FORMAT (the file is empty: "<path>: the file
 * is empty (0 bytes at offset 0)", the same class the in-memory readers give a zero-length
 * buffer). */
cuzk_status cuzk_file_map(cuzk_mapped_file *f, const char *path, cuzk_error *err);

/* Unmap f (from cuzk_file_map) and set it to {NULL, 0}. {NULL, 0} is a no-op. */
void cuzk_file_unmap(cuzk_mapped_file *f);

/* Replace `path` atomically with the bytes emit(out, ctx) writes to `out`.
 *
 * Steps: create "<path>.tmp.XXXXXX" in the same directory (mkstemp), give it the
 * permission bits of the file it replaces or else 0666 & ~umask (the umask is read from
 * /proc/self/status, since umask(2) would change process-wide state; 022 if unreadable),
 * call emit with a stdio stream with a 1 MiB buffer, fflush, fsync, fclose, rename over
 * `path`, then fsync the directory (best effort) so the rename itself is durable.
 *
 * emit returns 0 or an errno value (e.g. EIO for a short fwrite, ENOMEM); it must not
 * close `out`. Until the rename, `path` is untouched; on any failure the temporary file is
 * removed. Errors: CUZK_E_IO ("<path>: ...: <strerror>", including the errno emit
 * returned), CUZK_E_NOMEM (the temporary name). */
cuzk_status cuzk_write_atomic(const char *path, int (*emit)(FILE *out, const void *ctx), const void *ctx,
                              cuzk_error *err);

#endif
