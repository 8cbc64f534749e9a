/* Byte stores for sealing state: a fixed-size array of bytes kept either in memory or in an
 * anonymous temporary file, read and written by offset. The sealer keeps every large
 * artifact of a sector (tree D, SDR layers, tree C, tree R) in one store each, so that the
 * same code seals in memory (2 KiB, 8 MiB) or with bounded RSS (512 MiB: layers and trees
 * streamed through files).
 *
 * A file store is created with mkstemp(3) in `dir` and unlinked at once, so nothing is left
 * behind when the process ends; its pages are in the kernel page cache, not in the process
 * RSS. A memory store is one calloc'ed block.
 *
 * Thread-safety: fc_store_read / fc_store_write on disjoint ranges may run concurrently from
 * several threads (pread/pwrite or memcpy); create/free are not concurrent with anything.
 */
#ifndef CUZK_FILECOIN_CORE_SEAL_STORE_H
#define CUZK_FILECOIN_CORE_SEAL_STORE_H

#include <stdint.h>

#include "common/status.h"

typedef struct {
    uint64_t size; /* bytes */
    uint8_t *mem;  /* memory store, or NULL */
    int fd;        /* file store, or -1 */
} fc_store;

/* Create a zero-filled store of `size` bytes: in memory when dir is NULL, else a temporary
 * file in directory `dir` (sparse; "<dir>/cuzk-<what>-XXXXXX", removed at once). `what` names
 * the artifact in messages. Errors: CUZK_E_NOMEM ("<what>: cannot allocate N bytes"),
 * CUZK_E_IO (mkstemp/ftruncate with the path and strerror). On error *s is an empty store. */
cuzk_status fc_store_create(fc_store *s, const char *dir, const char *what, uint64_t size, cuzk_error *err);
/* Make a memory store of the malloc'ed block mem[0..size) (the store frees it). */
void fc_store_adopt(fc_store *s, uint8_t *mem, uint64_t size);
/* Release the memory or close the file. Accepts a zeroed or already freed store. */
void fc_store_free(fc_store *s);
/* An empty store (for initialisation before create). */
void fc_store_init(fc_store *s);

/* Copy bytes [off, off + len) out of / into the store. Errors: CUZK_E_INVALID_ARG (range
 * beyond size), CUZK_E_IO (short pread/pwrite with strerror). */
cuzk_status fc_store_read(const fc_store *s, uint64_t off, void *buf, uint64_t len, cuzk_error *err);
cuzk_status fc_store_write(fc_store *s, uint64_t off, const void *buf, uint64_t len, cuzk_error *err);

#endif
