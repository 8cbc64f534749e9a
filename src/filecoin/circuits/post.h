/* FallbackPoSt partition circuit (WinningPoSt and WindowPoSt), its public inputs and the
 * assembly of one partition from what Curio sends.
 *
 * Sources: storage-proofs-post src/fallback/{circuit.rs, compound.rs, vanilla.rs},
 * filecoin-proofs src/api/{post_util.rs, winning_post.rs, window_post.rs}
 * (filecoin-circuits.md §9.1, §8.1, §8.3; filecoin-vanilla.md §8; cuzk-reference.md §1.3,
 * §2.3).
 *
 * Circuit: sector_count sector sub-circuits in order; per sector comm_r_last, comm_c,
 * comm_r allocated, comm_r inputized, Poseidon_2(comm_c, comm_r_last) with `comm_r · ONE =
 * h`, then per challenge a PoR (leaf allocated, index bits packed into one public input,
 * root = the comm_r_last variable, private). Public inputs per sector: comm_r, then the
 * challenge_count leaf indices. Counts: 32 GiB WindowPoSt 125,279,217 constraints / 25,840
 * inputs; WinningPoSt 370,590 / 133; the §8.1 test circuit (tree 8-0-0, 64 leaves,
 * 5 challenges, 3 sectors) 16,869 / 19.
 *
 * Circuits are written once against cs_t, so every cs mode works. Thread-safety: the
 * functions touch only their arguments (one cs per thread).
 */
#ifndef CUZK_FILECOIN_CIRCUITS_POST_H
#define CUZK_FILECOIN_CIRCUITS_POST_H

#include <stdint.h>

#include "cs/cs.h"
#include "filecoin/registry.h"
#include "filecoin/vanilla.h"
#include "gadgets/merkle.h"

/* Shape of one partition circuit. */
typedef struct {
    merkle_shape tree;        /* tree R: Poseidon, base arity 8 (test shapes: any PoR shape) */
    uint32_t sector_count;    /* circuit sectors: 66 winning, 2 / 2349 / 2300 window */
    uint32_t challenge_count; /* challenges per circuit sector: 1 winning, 10 window */
} fc_post_shape;

/* The circuit shape of a registered PoSt proof. */
void fc_post_shape_of(const fc_post_proof *p, fc_post_shape *out);

/* Witness of one circuit sector (Montgomery Fr). For challenge c: leaf[c], the path's
 * per-level positions index[c·L .. c·L + L) (L = merkle_shape_levels) and siblings
 * sib[c·S .. c·S + S) (S = merkle_shape_siblings), leaf level first. */
typedef struct {
    fr_t comm_r, comm_c, comm_r_last;
    const fr_t *leaf;
    const unsigned *index;
    const fr_t *sib;
} fc_post_sector_witness;

/* Synthesize the partition circuit. In value modes circuit sector i takes
 * sectors[min(i, nsectors − 1)] (so a partition with fewer sectors is padded by repeating
 * the last one, as compound.rs does); in CS_SHAPE / CS_RECORD sectors is ignored.
 * Errors: CUZK_E_INVALID_ARG (no witness in a value mode, bad shape), CUZK_E_NOMEM, copied
 * from the cs's sticky status into err. */
cuzk_status fc_post_synthesize(cs_t *cs, const fc_post_shape *s, const fc_post_sector_witness *sectors,
                               uint32_t nsectors, cuzk_error *err);

#endif
