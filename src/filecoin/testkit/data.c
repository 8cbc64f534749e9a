/* Unpadded user data into the leaves of tree D; contract in seal.h (fc_tree_d_put_data). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/testkit/fr32.h"
#include "filecoin/testkit/seal.h"

#define CHUNK_BYTES (1024u * 127u) /* unpadded bytes per chunk: 4,096 nodes */

cuzk_status fc_tree_d_put_data(fc_full_tree *tree_d, const uint8_t *data, uint64_t len, const char *path,
                               cuzk_error *err)
{
    uint64_t cap = fc_fr32_unpadded_capacity(tree_d->shape.leaves);
    FILE *f = NULL;
    if (path && !(f = fopen(path, "rb")))
        return cuzk_fail(err, CUZK_E_IO, "data %s: %s", path, strerror(errno));
    uint8_t *in = malloc(CHUNK_BYTES), *out = malloc(fc_fr32_padded_nodes(CHUNK_BYTES) * 32);
    cuzk_status st = in && out ? CUZK_OK : cuzk_fail(err, CUZK_E_NOMEM, "data buffers");
    uint64_t done = 0; /* unpadded bytes consumed: a multiple of 127 until the last chunk */
    while (st == CUZK_OK) {
        size_t n;
        if (f) {
            n = fread(in, 1, CHUNK_BYTES, f);
            if (n < CHUNK_BYTES && ferror(f))
                st = cuzk_fail(err, CUZK_E_IO, "data %s at byte %" PRIu64 ": read error", path, done);
        } else {
            n = len - done < CHUNK_BYTES ? (size_t)(len - done) : CHUNK_BYTES;
            memcpy(in, data + done, n);
        }
        if (st != CUZK_OK || n == 0)
            break;
        if (n > cap - done) {
            st = cuzk_fail(err, CUZK_E_INVALID_ARG, "data longer than the sector's capacity of %" PRIu64 " bytes", cap);
            break;
        }
        fc_fr32_pad(in, n, out);
        st = fc_full_tree_put_leaves(tree_d, done / 127 * 4, fc_fr32_padded_nodes(n), (const uint8_t(*)[32])out, err);
        done += n;
        if (n < CHUNK_BYTES)
            break;
    }
    if (f)
        fclose(f);
    free(in);
    free(out);
    return st;
}
