/* Parameter point cache: build, validate, map. Format and contracts in params_cache.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file_io.h"
#include "common/par.h"
#include "common/sha256.h"
#include "groth16/bellperson_params.h"
#include "groth16/params_cache.h"

#define PC_MAGIC "CUZKPC\0\1"
#define PC_VERSION 1u
#define PC_HEADER_BYTES 4096u
#define PC_ALIGN 4096u
#define PC_CHUNK (64u << 20) /* checksum chunk: hashed in parallel, then combined */

enum { S_IC = 0, S_H, S_L, S_A, S_B1, S_B2, S_COUNT };
static const char *const SEC_NAME[S_COUNT] = {"ic", "h", "l", "a", "b_g1", "b_g2"};

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint32_t g1_size, g2_size;
    uint64_t src_size;
    int64_t src_mtime_sec, src_mtime_nsec;
    uint64_t src_dev, src_ino;
    uint8_t src_vk_sha256[32];
    uint64_t n_ic, n_h, n_l, n_a, n_b;
    uint32_t log2_m, reserved;
    uint64_t off[S_COUNT], len[S_COUNT], sum[S_COUNT];
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, gamma_g2, delta_g2;
    uint64_t header_sum; /* over the bytes before this field */
} pc_header;

_Static_assert(sizeof(pc_header) <= PC_HEADER_BYTES, "cache header fits its page");

/* ---- checksum ---- */

static uint64_t mix(uint64_t a, uint64_t w)
{
    a ^= w;
    a *= 0x9e3779b97f4a7c15ull;
    return a ^ (a >> 29);
}

/* 4 independent lanes over 8-byte words, tail bytes zero-padded, length folded in. */
static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    uint64_t l[4] = {0x243f6a8885a308d3ull, 0x13198a2e03707344ull, 0xa4093822299f31d0ull, 0x082efa98ec4e6c89ull};
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w[4];
        memcpy(w, p + i, 32);
        for (int k = 0; k < 4; k++)
            l[k] = mix(l[k], w[k]);
    }
    for (int k = 0; i < n; i += 8, k++) {
        uint64_t w = 0;
        memcpy(&w, p + i, n - i < 8 ? n - i : 8);
        l[k & 3] = mix(l[k & 3], w);
    }
    uint64_t h = mix(mix(mix(mix((uint64_t)n, l[0]), l[1]), l[2]), l[3]);
    return mix(h, h >> 17);
}

typedef struct {
    const uint8_t *base;
    size_t len;
    uint64_t *out;
} hash_job;

static cuzk_status hash_chunk(void *ctx, uint64_t c, unsigned worker, cuzk_error *err)
{
    hash_job *j = ctx;
    size_t a = c * (size_t)PC_CHUNK, b = a + PC_CHUNK < j->len ? a + PC_CHUNK : j->len;
    j->out[c] = hash_bytes(j->base + a, b - a);
    return CUZK_OK;
}

/* Section checksum: the hash of its 64 MiB chunks' hashes (chunks hashed on `threads`). */
static uint64_t section_sum(const uint8_t *p, size_t len, unsigned threads)
{
    size_t nchunks = (len + PC_CHUNK - 1) / PC_CHUNK;
    if (nchunks <= 1)
        return hash_bytes(p, len);
    uint64_t *sums = malloc(nchunks * sizeof *sums);
    if (!sums) { /* fall back to one pass: still a valid, deterministic checksum definition */
        uint64_t h = 0;
        for (size_t c = 0; c < nchunks; c++) {
            size_t a = c * (size_t)PC_CHUNK, b = a + PC_CHUNK < len ? a + PC_CHUNK : len;
            uint64_t x = hash_bytes(p + a, b - a);
            h = mix(h, x);
        }
        return mix(h, nchunks);
    }
    hash_job j = {p, len, sums};
    unsigned t = threads ? threads : 1;
    if (t > 64)
        t = 64;
    (void)cuzk_par_for(t, nchunks, hash_chunk, &j, NULL);
    uint64_t h = 0;
    for (size_t c = 0; c < nchunks; c++)
        h = mix(h, sums[c]);
    free(sums);
    return mix(h, nchunks);
}

/* ---- identity ---- */

typedef struct {
    struct stat st;
    uint8_t vk_sha[32];
} src_identity;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static cuzk_status identity_of(const char *path, src_identity *id, cuzk_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "%s: %s", path, strerror(errno));
    cuzk_status st = CUZK_OK;
    uint8_t head[BP_VK_IC_OFFSET];
    if (fstat(fd, &id->st) != 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: fstat: %s", path, strerror(errno));
    } else if (!S_ISREG(id->st.st_mode)) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: not a regular file", path);
    } else if (pread(fd, head, sizeof head, 0) != (ssize_t)sizeof head) {
        st = cuzk_fail(err, CUZK_E_FORMAT, "%s: shorter than a verifying key (%u bytes)", path, BP_VK_IC_OFFSET);
    } else {
        uint64_t n_ic = (uint64_t)head[864] << 24 | (uint64_t)head[865] << 16 | (uint64_t)head[866] << 8 | head[867];
        uint64_t vk_len = BP_VK_IC_OFFSET + n_ic * BP_G1_BYTES;
        if (vk_len > (uint64_t)id->st.st_size || vk_len > (64u << 20)) {
            st = cuzk_fail(err, CUZK_E_FORMAT, "%s: vk n_ic %llu at offset 864 does not fit the file", path,
                           (unsigned long long)n_ic);
        } else {
            uint8_t *buf = malloc(vk_len);
            if (!buf)
                st = cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
            else if (pread(fd, buf, vk_len, 0) != (ssize_t)vk_len)
                st = cuzk_fail(err, CUZK_E_IO, "%s: short read of the vk", path);
            else if (!cuzk_sha256(buf, vk_len, id->vk_sha))
                st = cuzk_fail(err, CUZK_E_INTERNAL, "%s: SHA-256 of the vk failed in libcrypto", path);
            free(buf);
        }
    }
    close(fd);
    return st;
}

static uint64_t align_up(uint64_t x) { return (x + PC_ALIGN - 1) / PC_ALIGN * PC_ALIGN; }

static void layout(pc_header *h)
{
    uint64_t sizes[S_COUNT] = {h->n_ic * sizeof(g1_affine_t), h->n_h * sizeof(g1_affine_t),
                               h->n_l * sizeof(g1_affine_t),  h->n_a * sizeof(g1_affine_t),
                               h->n_b * sizeof(g1_affine_t),  h->n_b * sizeof(g2_affine_t)};
    uint64_t off = PC_HEADER_BYTES;
    for (int s = 0; s < S_COUNT; s++) {
        h->off[s] = off;
        h->len[s] = sizes[s];
        off = align_up(off + sizes[s]);
    }
}

uint64_t groth16_params_cache_size(uint64_t n_ic, uint64_t n_h, uint64_t n_l, uint64_t n_a, uint64_t n_b)
{
    pc_header h = {.n_ic = n_ic, .n_h = n_h, .n_l = n_l, .n_a = n_a, .n_b = n_b};
    layout(&h);
    return align_up(h.off[S_B2] + h.len[S_B2]);
}

static uint64_t header_sum(const pc_header *h)
{
    return hash_bytes((const uint8_t *)h, offsetof(pc_header, header_sum));
}

/* ---- build ---- */

static cuzk_status build(const char *params_path, const char *cache_path, const src_identity *id, unsigned flags,
                         unsigned threads, cuzk_error *err)
{
    bp_params_t bp;
    /* every point is at least checked on its curve while converting (a few products a point):
     * a corrupted coordinate is refused naming the file, section and offset instead of
     * surfacing later as proofs that fail verification */
    cuzk_status st = bp_params_open(&bp, params_path,
                                    (flags & GROTH16_PC_CHECK_POINTS) ? BP_CHECK_POINTS : BP_CHECK_ON_CURVE, err);
    if (st)
        return st;
    pc_header *h = calloc(1, PC_HEADER_BYTES);
    if (!h) {
        bp_params_close(&bp);
        return cuzk_fail(err, CUZK_E_NOMEM, "params cache: out of memory");
    }
    memcpy(h->magic, PC_MAGIC, 8);
    h->version = PC_VERSION;
    h->header_bytes = PC_HEADER_BYTES;
    h->g1_size = sizeof(g1_affine_t);
    h->g2_size = sizeof(g2_affine_t);
    h->src_size = (uint64_t)id->st.st_size;
    h->src_mtime_sec = id->st.st_mtim.tv_sec;
    h->src_mtime_nsec = id->st.st_mtim.tv_nsec;
    h->src_dev = (uint64_t)id->st.st_dev;
    h->src_ino = (uint64_t)id->st.st_ino;
    memcpy(h->src_vk_sha256, id->vk_sha, 32);
    h->n_ic = bp.vk.n_ic;
    h->n_h = bp.sec[BP_SEC_H].count;
    h->n_l = bp.sec[BP_SEC_L].count;
    h->n_a = bp.sec[BP_SEC_A].count;
    h->n_b = bp.sec[BP_SEC_B_G1].count;
    h->log2_m = bp.log2_m;
    h->alpha_g1 = bp.vk.alpha_g1, h->beta_g1 = bp.vk.beta_g1, h->delta_g1 = bp.vk.delta_g1;
    h->beta_g2 = bp.vk.beta_g2, h->gamma_g2 = bp.vk.gamma_g2, h->delta_g2 = bp.vk.delta_g2;
    layout(h);
    uint64_t total = align_up(h->off[S_B2] + h->len[S_B2]);

    size_t plen = strlen(cache_path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        free(h);
        bp_params_close(&bp);
        return cuzk_fail(err, CUZK_E_NOMEM, "params cache: out of memory");
    }
    snprintf(tmp, plen + 16, "%s.tmp.XXXXXX", cache_path);
    int fd = mkstemp(tmp);
    uint8_t *map = MAP_FAILED;
    if (fd < 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: cannot create a temporary file: %s", cache_path, strerror(errno));
        goto out;
    }
    if (fchmod(fd, 0644) != 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: chmod: %s", tmp, strerror(errno));
        goto out;
    }
    /* blocks reserved before the mapping is written: stores into a hole on a full disk
     * would raise SIGBUS instead of failing */
    if ((st = cuzk_reserve_space(fd, total, cache_path, err)))
        goto out;
    map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: mmap of %llu bytes: %s", tmp, (unsigned long long)total, strerror(errno));
        goto out;
    }
    memcpy(map + h->off[S_IC], bp.vk.ic, h->len[S_IC]);
    static const bp_section src[S_COUNT] = {BP_SEC_COUNT, BP_SEC_H, BP_SEC_L, BP_SEC_A, BP_SEC_B_G1, BP_SEC_B_G2};
    for (int s = S_H; s < S_COUNT && !st; s++)
        st = bp_params_decode_section(&bp, src[s], map + h->off[s], threads, err);
    if (st)
        goto out;
    for (int s = 0; s < S_COUNT; s++)
        h->sum[s] = section_sum(map + h->off[s], h->len[s], threads);
    h->header_sum = header_sum(h);
    memcpy(map, h, PC_HEADER_BYTES);
    if (msync(map, total, MS_SYNC) != 0 || fsync(fd) != 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: sync: %s", tmp, strerror(errno));
        goto out;
    }
    if (rename(tmp, cache_path) != 0) {
        st = cuzk_fail(err, CUZK_E_IO, "%s: rename to %s: %s", tmp, cache_path, strerror(errno));
        goto out;
    }
    tmp[0] = 0; /* renamed: nothing to remove */
out:
    if (map != MAP_FAILED)
        munmap(map, total);
    if (fd >= 0)
        close(fd);
    if (tmp[0])
        unlink(tmp);
    free(tmp);
    free(h);
    bp_params_close(&bp);
    return st;
}

/* ---- open ---- */

/* Validate an existing cache; on a mismatch return CUZK_E_FORMAT with the reason in err
 * (the caller rebuilds). */
static cuzk_status open_cache(const char *cache_path, const src_identity *id, unsigned flags, unsigned threads,
                              groth16_mapped_params *out, cuzk_error *err)
{
    int fd = open(cache_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_FORMAT, "no cache");
    struct stat cs;
    pc_header h;
    cuzk_status st = CUZK_OK;
    if (fstat(fd, &cs) != 0 || !S_ISREG(cs.st_mode) || (uint64_t)cs.st_size < PC_HEADER_BYTES ||
        pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        close(fd);
        return cuzk_fail(err, CUZK_E_FORMAT, "cache unreadable or shorter than its header");
    }
    if (memcmp(h.magic, PC_MAGIC, 8) || h.version != PC_VERSION || h.header_bytes != PC_HEADER_BYTES ||
        h.g1_size != sizeof(g1_affine_t) || h.g2_size != sizeof(g2_affine_t))
        st = cuzk_fail(err, CUZK_E_FORMAT, "cache of another layout version");
    else if (h.header_sum != header_sum(&h))
        st = cuzk_fail(err, CUZK_E_FORMAT, "cache header checksum mismatch");
    else if (h.src_size != (uint64_t)id->st.st_size || h.src_mtime_sec != id->st.st_mtim.tv_sec ||
             h.src_mtime_nsec != id->st.st_mtim.tv_nsec || h.src_dev != (uint64_t)id->st.st_dev ||
             h.src_ino != (uint64_t)id->st.st_ino || memcmp(h.src_vk_sha256, id->vk_sha, 32))
        st = cuzk_fail(err, CUZK_E_FORMAT, "source .params changed (size, mtime, inode or vk)");
    if (!st) {
        pc_header want = h;
        layout(&want);
        uint64_t total = align_up(want.off[S_B2] + want.len[S_B2]);
        if (memcmp(want.off, h.off, sizeof h.off) || memcmp(want.len, h.len, sizeof h.len) ||
            total != (uint64_t)cs.st_size)
            st = cuzk_fail(err, CUZK_E_FORMAT, "cache size %llu or section layout does not match its counts",
                           (unsigned long long)cs.st_size);
    }
    if (st) {
        close(fd);
        return st;
    }
    size_t len = (size_t)cs.st_size;
    uint8_t *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return cuzk_fail(err, CUZK_E_IO, "%s: mmap: %s", cache_path, strerror(errno));
    if (flags & GROTH16_PC_VERIFY_CHECKSUMS) {
        for (int s = 0; s < S_COUNT; s++)
            if (section_sum(map + h.off[s], h.len[s], threads) != h.sum[s]) {
                munmap(map, len);
                return cuzk_fail(err, CUZK_E_FORMAT, "checksum of section %s", SEC_NAME[s]);
            }
    }
    groth16_params_t *pk = &out->pk;
    memset(pk, 0, sizeof *pk);
    pk->vk.alpha_g1 = h.alpha_g1, pk->vk.beta_g1 = h.beta_g1, pk->vk.delta_g1 = h.delta_g1;
    pk->vk.beta_g2 = h.beta_g2, pk->vk.gamma_g2 = h.gamma_g2, pk->vk.delta_g2 = h.delta_g2;
    pk->vk.ic = (g1_affine_t *)(map + h.off[S_IC]);
    pk->vk.n_ic = h.n_ic;
    pk->n_inputs = h.n_ic;
    pk->n_aux = h.n_l;
    pk->log2_m = h.log2_m;
    pk->h_form = POLY_H_BELLPERSON;
    pk->h = (g1_affine_t *)(map + h.off[S_H]);
    pk->l = (g1_affine_t *)(map + h.off[S_L]);
    pk->a = (g1_affine_t *)(map + h.off[S_A]);
    pk->b_g1 = (g1_affine_t *)(map + h.off[S_B1]);
    pk->b_g2 = (g2_affine_t *)(map + h.off[S_B2]);
    pk->n_h = h.n_h, pk->n_l = h.n_l, pk->n_a = h.n_a, pk->n_b = h.n_b;
    out->map = map;
    out->map_len = len;
    return CUZK_OK;
}

static char *cache_path_for(const char *params_path, const char *cache_dir)
{
    const char *base = strrchr(params_path, '/');
    base = base ? base + 1 : params_path;
    size_t n = strlen(cache_dir) + strlen(base) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s.cuzkpc", cache_dir, base);
    return p;
}

cuzk_status groth16_params_cache_load(const char *params_path, const char *cache_dir, unsigned flags,
                                      unsigned threads, groth16_mapped_params *out, groth16_pc_report *report,
                                      cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    groth16_pc_report rep;
    memset(&rep, 0, sizeof rep);
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    src_identity id;
    cuzk_status st = identity_of(params_path, &id, err);
    if (st)
        return st;
    if ((st = cuzk_ensure_dir(cache_dir, err)))
        return st;
    char *cpath = cache_path_for(params_path, cache_dir);
    if (!cpath)
        return cuzk_fail(err, CUZK_E_NOMEM, "params cache: out of memory");
    double t0 = now_ms();
    cuzk_error why = {0};
    st = open_cache(cpath, &id, flags, threads, out, &why);
    if (st == CUZK_E_FORMAT) {
        if (flags & GROTH16_PC_NO_BUILD) {
            free(cpath);
            return cuzk_fail(err, CUZK_E_IO, "%s: cache unusable (%s) and building is off", params_path, why.msg);
        }
        snprintf(rep.rebuild_reason, sizeof rep.rebuild_reason, "%s", why.msg);
        double b0 = now_ms();
        st = build(params_path, cpath, &id, flags, threads, err);
        rep.build_ms = now_ms() - b0;
        rep.built = true;
        if (!st) {
            t0 = now_ms();
            st = open_cache(cpath, &id, flags & ~GROTH16_PC_VERIFY_CHECKSUMS, threads, out, err);
            if (st == CUZK_E_FORMAT)
                st = cuzk_fail(err, CUZK_E_INTERNAL, "%s: the cache just built does not validate: %s", cpath,
                               err ? err->msg : "?");
        }
    } else if (st && err) {
        *err = why;
    }
    rep.open_ms = now_ms() - t0;
    if (st) {
        free(cpath);
        memset(out, 0, sizeof *out);
        return st;
    }
    rep.cache_bytes = out->map_len;
    out->cache_path = cpath;
    if (report)
        *report = rep;
    return CUZK_OK;
}

void groth16_mapped_params_close(groth16_mapped_params *mp)
{
    if (!mp)
        return;
    if (mp->map)
        munmap((void *)mp->map, mp->map_len);
    free(mp->cache_path);
    memset(mp, 0, sizeof *mp);
}
