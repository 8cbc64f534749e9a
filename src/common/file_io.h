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

#include <stdbool.h>
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

/* Map the whole of `path` read-only. The file is opened with O_NONBLOCK, so a FIFO with no
 * writer is refused at once instead of blocking open(2) forever. On success *f holds the
 * mapping; on error *f is {NULL, 0}. Errors: CUZK_E_IO (open, fstat, mmap, or not a regular
 * file: "<path>: not a regular file (a FIFO or pipe); ..."; the message names the path and
 * gives strerror), CUZK_E_FORMAT (the file is empty: "<path>: the file is empty (0 bytes at
 * offset 0)", the same class the in-memory readers give a zero-length buffer). */
cuzk_status cuzk_file_map(cuzk_mapped_file *f, const char *path, cuzk_error *err);

/* Read the whole of `path` into a malloc'ed buffer *out (caller frees), NUL-terminated;
 * *len counts the bytes without the NUL. The open never blocks (O_NONBLOCK), then reads
 * block. A regular file is read whole. A FIFO, pipe (bash's <(cmd), /dev/stdin) or
 * character device (/dev/null) is read to its end when allow_stream, else refused; a FIFO
 * or pipe that gives no byte (no process holds it open for writing) is CUZK_E_IO. Anything
 * else (directory, block device, socket) is refused.
 * max_bytes (< SIZE_MAX / 2) bounds what is read and allocated.
 * Errors: CUZK_E_IO ("<path>: cannot open: <strerror>", "<path>: not a regular file (a
 * FIFO or pipe)", "<path>: nothing to read from a FIFO or pipe ...", read errors),
 * CUZK_E_FORMAT ("<path>: ... more than the limit of N bytes"), CUZK_E_NOMEM. On error
 * *out is NULL and *len 0. */
cuzk_status cuzk_file_read(const char *path, size_t max_bytes, bool allow_stream, char **out, size_t *len,
                           cuzk_error *err);

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

/* cuzk_write_atomic for an output of known length: the temporary file's `size` bytes are
 * reserved first (cuzk_reserve_space), so a full disk is reported before anything is
 * written: "<path>: no space left on device, N bytes needed in DIR" (CUZK_E_IO), and the
 * temporary file is removed. An emit that writes fewer bytes leaves a file of that length.
 * size 0 reserves nothing (cuzk_write_atomic). A write that still fails for want of space
 * (unsized) says "<path>: no space left on device in DIR (...)". */
cuzk_status cuzk_write_atomic_sized(const char *path, uint64_t size, int (*emit)(FILE *out, const void *ctx),
                                    const void *ctx, cuzk_error *err);

/* Reserve blocks for bytes [0, bytes) of the open file fd (posix_fallocate(3)), so that
 * later writes, above all stores through a shared mapping of the file (which would raise
 * SIGBUS on a full disk instead of returning an error), cannot fail for want of space.
 * Every file written through a mapping must be reserved with this first. The file grows
 * to at least `bytes`. A file system that cannot reserve (EOPNOTSUPP, EINVAL) is accepted
 * as it is. Errors: CUZK_E_IO "<path>: no space left on device, N bytes needed in DIR"
 * (ENOSPC, EDQUOT, EFBIG) or "<path>: cannot reserve N bytes: <strerror>";
 * CUZK_E_INVALID_ARG for a size beyond off_t. The caller removes its file on error. */
cuzk_status cuzk_reserve_space(int fd, uint64_t bytes, const char *path, cuzk_error *err);

/* The same in two phases, for outputs that must change together (e.g. proof.json and
 * public.json): cuzk_write_stage writes and syncs the temporary file and leaves `path`
 * untouched; cuzk_write_commit renames it over `path`; cuzk_write_abort removes it. Stage
 * every file first and commit only when all stages succeeded. The staged file owns two
 * malloc'ed strings until commit/abort. A symbolic link at `path` is written through (its
 * target is replaced); an existing non-regular file (device, FIFO, socket, directory) is
 * refused with CUZK_E_IO before anything is written. Errors as cuzk_write_atomic. */
typedef struct {
    char *path; /* the file to replace */
    char *tmp;  /* the staged temporary file */
    int slot;   /* internal: its entry for cuzk_write_cleanup_on_signals, -1 = none */
} cuzk_staged_file;

cuzk_status cuzk_write_stage(cuzk_staged_file *sf, const char *path, int (*emit)(FILE *out, const void *ctx),
                             const void *ctx, cuzk_error *err);
/* cuzk_write_stage with `size` bytes reserved first, as cuzk_write_atomic_sized. */
cuzk_status cuzk_write_stage_sized(cuzk_staged_file *sf, const char *path, uint64_t size,
                                   int (*emit)(FILE *out, const void *ctx), const void *ctx, cuzk_error *err);
cuzk_status cuzk_write_commit(cuzk_staged_file *sf, cuzk_error *err);
void cuzk_write_abort(cuzk_staged_file *sf);

/* For programs that write outputs with the functions above (the `cuzk` CLI): install
 * handlers for SIGINT, SIGTERM and SIGHUP that remove every temporary file being written or
 * staged (".tmp.XXXXXX", up to 16 at once), then die of the same signal with its default
 * action, so an interrupted write leaves nothing behind. Signals that are ignored or
 * already have a handler are left alone; a later sigaction (e.g. the daemon's own
 * handlers) replaces these. Call once, from the main thread, before starting threads.
 * The handler uses only async-signal-safe calls (unlink, signal, raise). Source: POSIX
 * signal-safety(7); the usual "clean up, then re-raise" idiom. */
void cuzk_write_cleanup_on_signals(void);

/* Whether an output can be written at `path` later with cuzk_write_atomic / stage, checked
 * before a long computation: a temporary file can be created (and is removed again) in
 * the path's directory, and an existing `path` is not a directory or another non-regular
 * file. Errors: CUZK_E_IO naming the path and strerror, CUZK_E_NOMEM. */
cuzk_status cuzk_check_writable(const char *path, cuzk_error *err);

/* mkdir -p: create `dir` and its missing parents (mode 0755). Errors: CUZK_E_IO naming the
 * component and strerror, or "<dir>: not a directory"; a path over PATH_MAX. */
cuzk_status cuzk_ensure_dir(const char *dir, cuzk_error *err);

/* Canonical absolute form of a path that may not exist yet (realpath of the file, or of
 * its directory plus the last component); malloc'ed, NULL if the directory does not
 * exist. cuzk_same_file: whether two paths name the same file (false if either cannot be
 * resolved). */
char *cuzk_canonical_path(const char *path);
bool cuzk_same_file(const char *a, const char *b);

#endif
