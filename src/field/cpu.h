/* CPU back ends of the field arithmetic, chosen at run time.
 *
 *   CUZK_CPU_PORTABLE  plain C Montgomery arithmetic (field/mont.h): any CPU;
 *   CUZK_CPU_ADX       mulx/adcx/adox assembly for single multiplications (mont_adx.S):
 *                      x86-64 with BMI2 and ADX (Intel Broadwell, AMD Zen and later);
 *   CUZK_CPU_IFMA      ADX for single operations, and 8-lane AVX-512 IFMA kernels
 *                      (vpmadd52luq/vpmadd52huq, radix 2^48 for Fp and 2^52 for Fr;
 *                      field/fpv_ifma.h) where independent operations come in batches:
 *                      the MSM's batch-affine bucket additions and the NTT butterflies.
 *                      Needs AVX-512 F, VL, DQ, BW and IFMA besides BMI2 and ADX.
 *
 * Every back end gives bit-identical results (all values are stored fully reduced in the
 * same Montgomery form), so the choice changes only speed, and switching while other
 * threads compute is safe: each operation reads the choice once.
 *
 * Selection: at program start the best back end the CPU supports is active (detected
 * with CPUID, and XGETBV for the AVX-512 register state), unless the environment
 * variable CUZK_CPU names another supported one. A build with
 * CUZK_FIELD_BACKEND=portable compiles only the portable back end; a compiler without
 * AVX-512 IFMA support leaves out the IFMA one. Programs call cuzk_cpu_select_env at
 * startup so that a CUZK_CPU naming an unknown or unsupported back end is refused with
 * a message (cuzk, cuzk-bench and the tests do); the library itself never fails for it.
 * All functions are thread-safe.
 */
#ifndef CUZK_FIELD_CPU_H
#define CUZK_FIELD_CPU_H

#include <stdatomic.h>
#include <stdbool.h>

#include "common/status.h"

typedef enum {
    CUZK_CPU_PORTABLE = 0,
    CUZK_CPU_ADX = 1,
    CUZK_CPU_IFMA = 2,
} cuzk_cpu_backend;

#define CUZK_CPU_COUNT 3

/* "portable", "adx", "ifma" (the values of CUZK_CPU); NULL for an unknown value. */
const char *cuzk_cpu_name(cuzk_cpu_backend b);

/* true iff b is compiled into this build and the CPU running it has what b needs. */
bool cuzk_cpu_supported(cuzk_cpu_backend b);

/* The fastest supported back end (IFMA, then ADX, then portable). */
cuzk_cpu_backend cuzk_cpu_best(void);

/* The back end in use now. */
cuzk_cpu_backend cuzk_cpu_active(void);

/* Make b the active back end. CUZK_E_UNSUPPORTED (message names b and what the CPU or
 * the build lacks) when b is not supported, CUZK_E_INVALID_ARG for an unknown value;
 * the active back end is then unchanged. */
cuzk_status cuzk_cpu_select(cuzk_cpu_backend b, cuzk_error *err);

/* cuzk_cpu_select by name ("portable", "adx", "ifma"); an unknown name gives
 * CUZK_E_INVALID_ARG with the accepted names in the message. */
cuzk_status cuzk_cpu_select_name(const char *name, cuzk_error *err);

/* Apply the environment variable CUZK_CPU (unset or empty: the best supported back
 * end) with the errors of cuzk_cpu_select_name; the message names the variable. */
cuzk_status cuzk_cpu_select_env(cuzk_error *err);

/* Internal to the field layer and its users' hot paths: the active back end as a relaxed
 * atomic, read once per operation. */
extern _Atomic int cuzk_cpu_active_;
static inline bool cuzk_cpu_use_adx(void)
{
    return atomic_load_explicit(&cuzk_cpu_active_, memory_order_relaxed) != CUZK_CPU_PORTABLE;
}
static inline bool cuzk_cpu_use_ifma(void)
{
    return atomic_load_explicit(&cuzk_cpu_active_, memory_order_relaxed) == CUZK_CPU_IFMA;
}

#endif
