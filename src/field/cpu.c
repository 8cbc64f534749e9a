/* Run-time choice of the field back end; contracts in cpu.h. */
#include "field/cpu.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && !defined(CUZK_FIELD_PORTABLE)
#include <cpuid.h>
#define CPU_X86 1
#endif

_Atomic int cuzk_cpu_active_ = CUZK_CPU_PORTABLE;

static const char *const NAMES[CUZK_CPU_COUNT] = {"portable", "adx", "ifma"};

const char *cuzk_cpu_name(cuzk_cpu_backend b)
{
    return (unsigned)b < CUZK_CPU_COUNT ? NAMES[b] : NULL;
}

#ifdef CPU_X86
/* CPUID leaf 7 sub-leaf 0: EBX bit 3 BMI2, 16 AVX512F, 17 AVX512DQ, 19 ADX, 21 AVX512IFMA,
 * 30 AVX512BW, 31 AVX512VL; leaf 1 ECX bit 27 OSXSAVE; XCR0 bits 1, 2 (SSE, AVX state)
 * and 5, 6, 7 (opmask, ZMM_Hi256, Hi16_ZMM) enabled by the OS (Intel SDM vol. 1 §15.2). */
static bool has_adx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    return (b >> 3 & 1) && (b >> 19 & 1);
}

static bool has_ifma(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 0xe6) != 0xe6)
        return false;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return false;
    const unsigned need = 1u << 16 | 1u << 17 | 1u << 21 | 1u << 30 | 1u << 31;
    return (b & need) == need;
}
#endif

/* Why b cannot run here, or NULL when it can. */
static const char *missing(cuzk_cpu_backend b)
{
    switch (b) {
    case CUZK_CPU_PORTABLE:
        return NULL;
    case CUZK_CPU_ADX:
#ifdef CPU_X86
        return has_adx() ? NULL : "the CPU lacks BMI2/ADX";
#else
        return "this build has no x86-64 assembly (CUZK_FIELD_BACKEND=portable or not x86-64)";
#endif
    case CUZK_CPU_IFMA:
#if defined(CPU_X86) && defined(CUZK_HAVE_IFMA)
        if (!has_adx())
            return "the CPU lacks BMI2/ADX";
        return has_ifma() ? NULL : "the CPU (or the OS) lacks AVX-512 F/VL/DQ/BW/IFMA";
#elif defined(CPU_X86)
        return "this build has no AVX-512 IFMA code (the compiler lacks -mavx512ifma)";
#else
        return "this build has no x86-64 code (CUZK_FIELD_BACKEND=portable or not x86-64)";
#endif
    }
    return "unknown back end";
}

bool cuzk_cpu_supported(cuzk_cpu_backend b)
{
    return (unsigned)b < CUZK_CPU_COUNT && missing(b) == NULL;
}

cuzk_cpu_backend cuzk_cpu_best(void)
{
    if (cuzk_cpu_supported(CUZK_CPU_IFMA))
        return CUZK_CPU_IFMA;
    return cuzk_cpu_supported(CUZK_CPU_ADX) ? CUZK_CPU_ADX : CUZK_CPU_PORTABLE;
}

cuzk_cpu_backend cuzk_cpu_active(void)
{
    return (cuzk_cpu_backend)atomic_load_explicit(&cuzk_cpu_active_, memory_order_relaxed);
}

cuzk_status cuzk_cpu_select(cuzk_cpu_backend b, cuzk_error *err)
{
    if ((unsigned)b >= CUZK_CPU_COUNT)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "CPU back end %d is not one of 0 .. %d", (int)b,
                         CUZK_CPU_COUNT - 1);
    const char *why = missing(b);
    if (why)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "CPU back end '%s' is not available: %s", NAMES[b], why);
    atomic_store_explicit(&cuzk_cpu_active_, (int)b, memory_order_relaxed);
    return CUZK_OK;
}

cuzk_status cuzk_cpu_select_name(const char *name, cuzk_error *err)
{
    for (int b = 0; b < CUZK_CPU_COUNT; b++)
        if (name && strcmp(name, NAMES[b]) == 0)
            return cuzk_cpu_select((cuzk_cpu_backend)b, err);
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "unknown CPU back end '%s' (use portable, adx or ifma)",
                     name ? name : "(null)");
}

cuzk_status cuzk_cpu_select_env(cuzk_error *err)
{
    const char *v = getenv("CUZK_CPU");
    if (!v || !*v)
        return cuzk_cpu_select(cuzk_cpu_best(), err);
    cuzk_status st = cuzk_cpu_select_name(v, err);
    if (st && err) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cuzk_fail(err, st, "CUZK_CPU=%s: %s", v, msg);
    }
    return st;
}

/* The start-up choice: CUZK_CPU when it names a supported back end, else the best. */
__attribute__((constructor)) static void cpu_init(void)
{
    if (cuzk_cpu_select_env(NULL) != CUZK_OK)
        (void)cuzk_cpu_select(cuzk_cpu_best(), NULL);
}
