/* Where a vanilla-proof reader is: the chain of field names and element indices from the
 * top of the value down to the item being read, for error messages that name the field
 * (bincode, with the byte offset) or the JSON path ("$.vanilla_proofs.StackedDrg8MiBV1[0][1]
 * .comm_d_proofs.data.Single.path.path[2].hashes[5]"). Also the canonical-field-element test
 * every reader applies to 32-byte field values.
 *
 * Keys are not copied: they must outlive the path (string literals in practice). Pushes past
 * FC_FIELDPATH_MAX segments are counted but not recorded (the message ends in "..."), so pops
 * always balance. Thread-safety: plain caller-owned data.
 */
#ifndef CUZK_FILECOIN_VANILLA_FIELDPATH_H
#define CUZK_FILECOIN_VANILLA_FIELDPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FC_FIELDPATH_MAX 24

typedef struct {
    unsigned depth;
    struct {
        const char *key; /* NULL: an array index */
        uint64_t index;
    } seg[FC_FIELDPATH_MAX];
} fc_fieldpath;

static inline void fc_fp_key(fc_fieldpath *fp, const char *key)
{
    if (fp->depth < FC_FIELDPATH_MAX)
        fp->seg[fp->depth].key = key;
    fp->depth++;
}

static inline void fc_fp_index(fc_fieldpath *fp, uint64_t index)
{
    if (fp->depth < FC_FIELDPATH_MAX) {
        fp->seg[fp->depth].key = NULL;
        fp->seg[fp->depth].index = index;
    }
    fp->depth++;
}

/* Replace the innermost segment by an index (the next element of the same array). */
static inline void fc_fp_set_index(fc_fieldpath *fp, uint64_t index)
{
    if (fp->depth && fp->depth <= FC_FIELDPATH_MAX)
        fp->seg[fp->depth - 1].index = index;
}

static inline void fc_fp_pop(fc_fieldpath *fp)
{
    if (fp->depth)
        fp->depth--;
}

/* Write the path as `root` followed by ".key" / "[index]" segments (a leading key after an
 * empty root has no dot), NUL-terminated and truncated to cap. Returns out. */
char *fc_fp_format(const fc_fieldpath *fp, const char *root, char *out, size_t cap);

/* Whether 32 bytes read little-endian are a canonical Fr (< r), the check every reader
 * applies to Poseidon domain values, SHA-256 (254-bit) digests, commitments and replica_id
 * (docs/formats.md#c1-output-json: "every 32-byte value is a canonical field element"). */
bool fc_bytes32_canonical(const uint8_t b[32]);

#endif
