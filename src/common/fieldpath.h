/* Where a reader of a structured value is (the JSON tokenizer, common/json_read.h, and the
 * Filecoin vanilla-proof readers): the chain of field names and element indices from the
 * top of the value down to the item being read, for error messages that name the field
 * (bincode, with the byte offset) or the JSON path ("$.vanilla_proofs.StackedDrg8MiBV1[0][1]
 * .comm_d_proofs.data.Single.path.path[2].hashes[5]").
 *
 * Keys are not copied: they must outlive the path (string literals in practice). Pushes past
 * CUZK_FIELDPATH_MAX segments are counted but not recorded (the message ends in "..."), so
 * pops always balance. Thread-safety: plain caller-owned data.
 */
#ifndef CUZK_COMMON_FIELDPATH_H
#define CUZK_COMMON_FIELDPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CUZK_FIELDPATH_MAX 24

typedef struct {
    unsigned depth;
    struct {
        const char *key; /* NULL: an array index */
        uint64_t index;
    } seg[CUZK_FIELDPATH_MAX];
} cuzk_fieldpath;

static inline void cuzk_fp_key(cuzk_fieldpath *fp, const char *key)
{
    if (fp->depth < CUZK_FIELDPATH_MAX)
        fp->seg[fp->depth].key = key;
    fp->depth++;
}

static inline void cuzk_fp_index(cuzk_fieldpath *fp, uint64_t index)
{
    if (fp->depth < CUZK_FIELDPATH_MAX) {
        fp->seg[fp->depth].key = NULL;
        fp->seg[fp->depth].index = index;
    }
    fp->depth++;
}

/* Replace the innermost segment by an index (the next element of the same array). */
static inline void cuzk_fp_set_index(cuzk_fieldpath *fp, uint64_t index)
{
    if (fp->depth && fp->depth <= CUZK_FIELDPATH_MAX)
        fp->seg[fp->depth - 1].index = index;
}

static inline void cuzk_fp_pop(cuzk_fieldpath *fp)
{
    if (fp->depth)
        fp->depth--;
}

/* Write the path as `root` followed by ".key" / "[index]" segments (a leading key after an
 * empty root has no dot), NUL-terminated and truncated to cap. Returns out. */
char *cuzk_fp_format(const cuzk_fieldpath *fp, const char *root, char *out, size_t cap);

#endif
