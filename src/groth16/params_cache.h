/* Parameter point cache: a bellperson `.params` converted once into the layout the prover
 * reads (affine Montgomery points, exactly the in-memory g1_affine_t / g2_affine_t arrays,
 * sections aligned to 4 KiB), then mapped read-only so that a daemon restart reaches a
 * usable proving key without decoding anything, and a 47 GiB key opens with an RSS of a few
 * KiB: pages are read as the MSMs touch them (docs/formats.md#parameters-params for the source
 * format; issue 10 "Parameters", issue 14 "Fast parameter residency").
 *
 * Cache file (`<cache_dir>/<basename of the .params>.cuzkpc`), little-endian:
 *   header (4 KiB): magic "CUZKPC\0\1", layout version, sizeof of the point types (the
 *     layout is tied to this build's structs), the source's identity (size, mtime, device,
 *     inode, and the SHA-256 of its vk bytes), the counts (n_ic, h, l, a, b), the section
 *     offsets, a 64-bit checksum of every section, the six vk points, and a checksum of the
 *     header itself;
 *   sections: ic, h, l, a, b_g1, b_g2 as arrays of affine points, each 4 KiB aligned.
 * The checksum is a 4-lane 64-bit multiply-xorshift hash over the section's 8-byte words
 * (corruption detection at memory speed, not a cryptographic digest).
 *
 * A cache whose header, identity or (when asked) checksums do not match is rebuilt from the
 * .params, never used. Building decodes every point (coordinates < p, flags and the curve
 * equation checked; the subgroup checks, which bellperson's unchecked mapped reader skips
 * as well, only with GROTH16_PC_CHECK_POINTS), writes a temporary file in cache_dir, fsyncs it and renames it over the
 * cache name (cuzk_write_atomic's recipe), so a crash leaves either the old or the new
 * cache. Concurrent builders of the same cache each write their own temporary file.
 *
 * Thread-safety: a groth16_mapped_params is immutable after loading; its pk may be used
 * by any number of provers at once.
 */
#ifndef CUZK_GROTH16_PARAMS_CACHE_H
#define CUZK_GROTH16_PARAMS_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "groth16/groth16.h"

#define GROTH16_PC_VERIFY_CHECKSUMS 1u /* hash every section of an existing cache before use */
#define GROTH16_PC_CHECK_POINTS 2u     /* building: on-curve and subgroup check of every point */
#define GROTH16_PC_NO_BUILD 4u         /* fail with CUZK_E_IO instead of building a missing/stale cache */

typedef struct {
    groth16_params_t pk; /* arrays point into the mapping (do not groth16_params_free) */
    const uint8_t *map;
    size_t map_len;
    char *cache_path; /* malloc'ed */
} groth16_mapped_params;

/* What loading did, for logs and status. */
typedef struct {
    bool built;             /* the cache was (re)built from the .params */
    char rebuild_reason[160]; /* why ("no cache", "source changed (mtime)", "checksum of h", ...) */
    double build_ms, open_ms;
    uint64_t cache_bytes;
} groth16_pc_report;

/* Load the proving key of `params_path` through its cache in `cache_dir` (created if
 * missing), building the cache when it is missing, stale or corrupt. `threads` (0 = online
 * CPUs) decode points while building. `report` may be NULL. Errors: CUZK_E_IO (paths,
 * mmap; the path and strerror named), the .params errors of bp_params_open / decoding
 * (section, point index, offset), CUZK_E_NOMEM. On error *out is zeroed. */
cuzk_status groth16_params_cache_load(const char *params_path, const char *cache_dir, unsigned flags,
                                      unsigned threads, groth16_mapped_params *out, groth16_pc_report *report,
                                      cuzk_error *err);

/* Unmap and free; zeroes *mp. NULL or a zeroed struct is a no-op. */
void groth16_mapped_params_close(groth16_mapped_params *mp);

/* Bytes the cache of these counts occupies (header + sections). */
uint64_t groth16_params_cache_size(uint64_t n_ic, uint64_t n_h, uint64_t n_l, uint64_t n_a, uint64_t n_b);

#endif
