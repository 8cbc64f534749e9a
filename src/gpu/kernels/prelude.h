/* Device-code prelude: the few macros that let one kernel source compile both as OpenCL C
 * (clBuildProgram at run time; __OPENCL_VERSION__ is defined) and as CUDA C++ (nvcc at build
 * time; __CUDACC__ is defined). Everything after this file is written in the common subset:
 * C99 without pointers into private memory across calls, structs passed and returned by value,
 * no dynamic allocation, no recursion, fixed-size local (shared) arrays declared at kernel
 * scope, u32/u64 integer types only.
 *
 *   KERNEL            a kernel entry point (CUDA: extern "C" __global__, so the name is
 *                     unmangled for cuModuleGetFunction)
 *   GLOBAL, LOCAL, CONSTANT   address-space qualifiers of pointer parameters (CUDA: none, a
 *                     generic pointer); LOCAL_ARRAY(T, name, n) declares a group-shared array
 *                     (__local / __shared__; at kernel scope only, as OpenCL requires)
 *   DEVICE            a device function (static inline; CUDA: static __device__ inline, nvcc decides)
 *   DEVICE_NOINLINE   a device function the compiler should keep out of line (code size)
 *   DEVICE_SHARED     a long device function called from several kernels: one out-of-line copy
 *                     on OpenCL (the run-time build compiles it once), inlined on CUDA (where a
 *                     call passing structs by value goes through the stack, in local memory)
 *   UNROLL            ask for a fully unrolled loop (constant trip count)
 *   GID, LID, GROUP_ID, GROUP_SIZE, NUM_GROUPS   1-D work-item / thread indices (u32)
 *   BARRIER_LOCAL()   work-group barrier with a local-memory fence (__syncthreads)
 *   BARRIER_GLOBAL()  work-group barrier that also orders global memory within the group
 *   MUL_WIDE(a, b)    32x32 -> 64-bit product; MUL_HI32(a, b) its high half
 *   ADDC(s, c, a, b)  add-with-carry: s = low 32 bits of a + b + c, c = the carry out (0/1)
 *   SUBB(d, bw, a, b) subtract-with-borrow: d = a - b - bw mod 2^32, bw = the borrow out
 *   ATOMIC_ADD_U32(p, v), ATOMIC_MIN_U32(p, v)   atomic read-modify-write of a GLOBAL u32,
 *                     returning the old value (OpenCL 1.1 atomic_add / atomic_min; CUDA
 *                     atomicAdd / atomicMin)
 *
 * CUDA-only fast paths (inline PTX carry chains) may sit beside the portable bodies behind
 * `#ifdef CUZK_GPU_CUDA`; the portable body is always compiled by both and stays the
 * reference the tests check.
 */
#ifndef CUZK_GPU_KERNELS_PRELUDE_H
#define CUZK_GPU_KERNELS_PRELUDE_H

#if defined(__OPENCL_VERSION__)
#define CUZK_GPU_OPENCL 1
typedef uint u32;
typedef ulong u64;
#define KERNEL __kernel
#define GLOBAL __global
#define LOCAL __local
#define CONSTANT __constant
#define LOCAL_ARRAY(T, name, n) __local T name[n]
#define DEVICE static inline
#define DEVICE_NOINLINE static __attribute__((noinline))
#define DEVICE_SHARED static __attribute__((noinline))
#define GID ((u32)get_global_id(0))
#define LID ((u32)get_local_id(0))
#define GROUP_ID ((u32)get_group_id(0))
#define GROUP_SIZE ((u32)get_local_size(0))
#define NUM_GROUPS ((u32)get_num_groups(0))
#define BARRIER_LOCAL() barrier(CLK_LOCAL_MEM_FENCE)
#define BARRIER_GLOBAL() barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#define MUL_HI32(a, b) mul_hi((u32)(a), (u32)(b))
#define ATOMIC_ADD_U32(p, v) atomic_add((volatile GLOBAL u32 *)(p), (u32)(v))
#define ATOMIC_MIN_U32(p, v) atomic_min((volatile GLOBAL u32 *)(p), (u32)(v))
#elif defined(__CUDACC__)
#define CUZK_GPU_CUDA 1
typedef unsigned int u32;
typedef unsigned long long u64;
#define KERNEL extern "C" __global__
#define GLOBAL
#define LOCAL
#define CONSTANT
#define LOCAL_ARRAY(T, name, n) __shared__ T name[n]
#define DEVICE static __device__ inline
#define DEVICE_NOINLINE static __device__ __noinline__
#define DEVICE_SHARED static __device__ __forceinline__
#define GID ((u32)(blockIdx.x * blockDim.x + threadIdx.x))
#define LID ((u32)threadIdx.x)
#define GROUP_ID ((u32)blockIdx.x)
#define GROUP_SIZE ((u32)blockDim.x)
#define NUM_GROUPS ((u32)gridDim.x)
#define BARRIER_LOCAL() __syncthreads()
#define BARRIER_GLOBAL() __syncthreads()
#define MUL_HI32(a, b) __umulhi((u32)(a), (u32)(b))
#define ATOMIC_ADD_U32(p, v) atomicAdd((unsigned int *)(p), (unsigned int)(v))
#define ATOMIC_MIN_U32(p, v) atomicMin((unsigned int *)(p), (unsigned int)(v))
/* nvcc does not always narrow (u64)a * (u64)b to one 32x32->64 multiply: say it */
static __device__ __forceinline__ u64 cuzk_mul_wide_(u32 a, u32 b)
{
    u64 r;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(r) : "r"(a), "r"(b));
    return r;
}
#define MUL_WIDE(a, b) cuzk_mul_wide_((u32)(a), (u32)(b))
#else
#error "prelude.h: compile as OpenCL C or CUDA"
#endif

#define UNROLL _Pragma("unroll")
#ifndef MUL_WIDE
#define MUL_WIDE(a, b) ((u64)(u32)(a) * (u64)(u32)(b))
#endif
#define ADDC(s, c, a, b)                                                                    \
    do {                                                                                    \
        u64 t_ = (u64)(u32)(a) + (u64)(u32)(b) + (u64)(c);                                  \
        (s) = (u32)t_;                                                                      \
        (c) = (u32)(t_ >> 32);                                                              \
    } while (0)
#define SUBB(d, bw, a, b)                                                                   \
    do {                                                                                    \
        u64 t_ = (u64)(u32)(a) - (u64)(u32)(b) - (u64)(bw);                                 \
        (d) = (u32)t_;                                                                      \
        (bw) = (u32)(t_ >> 63);                                                             \
    } while (0)

#endif
