/* Montgomery multiplication with mulx/adcx/adox (BMI2 + ADX), x86-64 System V.
 *
 *   void cuzk_fp_mul_adx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6]);
 *   void cuzk_fr_mul_adx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4]);
 *
 * r = a * b * 2^-64N mod m for the BLS12-381 base field (N = 6) and scalar field (N = 4);
 * inputs fully reduced, output fully reduced, r may alias a or b (all loads of a and b
 * happen before the single store of r).
 *
 * Algorithm: interleaved (CIOS) Montgomery multiplication, one 64-bit word of b per round:
 * T += a * b_i, then T += (T_0 * m') * m and drop the zero low word. The two carry chains
 * of each multiply-accumulate pass run in parallel on CF (adcx, low halves) and OF (adox,
 * high halves): Gopal et al., "Fast and Constant-Time Implementation of Modular
 * Exponentiation" / Ozturk et al., "New Instructions Supporting Large Integer Arithmetic
 * on Intel Architecture Processors" (Intel white paper 327831, 2012). Since both moduli are
 * below 2^(64N - 2), T stays below 2m and fits N words plus one, and the register that held
 * the dropped word is exactly 0 and becomes the next round's top word (registers rotate
 * instead of moving). A final conditional subtraction brings T below m.
 */

    .section .rodata
    .p2align 5
fp_modulus:
    .quad 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624
    .quad 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a
fr_modulus:
    .quad 0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48

    .text

#include "field/mont_adx.inc"

/* One round for N = 6: T = (T + a * b[boff] + q * p) / 2^64, T in t0..t6 (t6 = 0 on entry) */
.macro ROUND6 boff, t0, t1, t2, t3, t4, t5, t6
    MULROW6 0, %rsi, \boff(%rcx), \t0, \t1, \t2, \t3, \t4, \t5, \t6
    REDROUND6 \t0, \t1, \t2, \t3, \t4, \t5, \t6
.endm

.macro ROUND4 boff, t0, t1, t2, t3, t4
    movq \boff(%rcx), %rdx
    xorl %eax, %eax
    MAC 0(%rsi), \t0, \t1
    MAC 8(%rsi), \t1, \t2
    MAC 16(%rsi), \t2, \t3
    MAC 24(%rsi), \t3, \t4
    adcxq %rax, \t4
    movabsq $0xfffffffeffffffff, %rdx
    imulq \t0, %rdx
    xorl %eax, %eax
    MAC fr_modulus+0(%rip), \t0, \t1
    MAC fr_modulus+8(%rip), \t1, \t2
    MAC fr_modulus+16(%rip), \t2, \t3
    MAC fr_modulus+24(%rip), \t3, \t4
    adcxq %rax, \t4
.endm

.macro PUSH_ALL
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
.endm

.macro POP_ALL
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
.endm

    .globl cuzk_fp_mul_adx
    .type cuzk_fp_mul_adx, @function
    .p2align 5
cuzk_fp_mul_adx:
    PUSH_ALL
    movq %rdx, %rcx
    ZERO_R8_R14
    ROUND6 0,  %r8,  %r9,  %r10, %r11, %r12, %r13, %r14
    ROUND6 8,  %r9,  %r10, %r11, %r12, %r13, %r14, %r8
    ROUND6 16, %r10, %r11, %r12, %r13, %r14, %r8,  %r9
    ROUND6 24, %r11, %r12, %r13, %r14, %r8,  %r9,  %r10
    ROUND6 32, %r12, %r13, %r14, %r8,  %r9,  %r10, %r11
    ROUND6 40, %r13, %r14, %r8,  %r9,  %r10, %r11, %r12
    /* T = r14, r8, r9, r10, r11, r12 (low to high); subtract p, keep T on borrow */
    movq %r14, %rax
    movq %r8, %rbx
    movq %r9, %r15
    movq %r10, %rcx
    movq %r11, %rsi
    movq %r12, %rdx
    subq fp_modulus+0(%rip), %rax
    sbbq fp_modulus+8(%rip), %rbx
    sbbq fp_modulus+16(%rip), %r15
    sbbq fp_modulus+24(%rip), %rcx
    sbbq fp_modulus+32(%rip), %rsi
    sbbq fp_modulus+40(%rip), %rdx
    cmovcq %r14, %rax
    cmovcq %r8, %rbx
    cmovcq %r9, %r15
    cmovcq %r10, %rcx
    cmovcq %r11, %rsi
    cmovcq %r12, %rdx
    movq %rax, 0(%rdi)
    movq %rbx, 8(%rdi)
    movq %r15, 16(%rdi)
    movq %rcx, 24(%rdi)
    movq %rsi, 32(%rdi)
    movq %rdx, 40(%rdi)
    POP_ALL
    ret
    .size cuzk_fp_mul_adx, .-cuzk_fp_mul_adx

    .globl cuzk_fr_mul_adx
    .type cuzk_fr_mul_adx, @function
    .p2align 5
cuzk_fr_mul_adx:
    PUSH_ALL
    movq %rdx, %rcx
    xorl %r8d, %r8d
    xorl %r9d, %r9d
    xorl %r10d, %r10d
    xorl %r11d, %r11d
    xorl %r12d, %r12d
    ROUND4 0,  %r8,  %r9,  %r10, %r11, %r12
    ROUND4 8,  %r9,  %r10, %r11, %r12, %r8
    ROUND4 16, %r10, %r11, %r12, %r8,  %r9
    ROUND4 24, %r11, %r12, %r8,  %r9,  %r10
    /* T = r12, r8, r9, r10 */
    movq %r12, %rax
    movq %r8, %rbx
    movq %r9, %r15
    movq %r10, %rcx
    subq fr_modulus+0(%rip), %rax
    sbbq fr_modulus+8(%rip), %rbx
    sbbq fr_modulus+16(%rip), %r15
    sbbq fr_modulus+24(%rip), %rcx
    cmovcq %r12, %rax
    cmovcq %r8, %rbx
    cmovcq %r9, %r15
    cmovcq %r10, %rcx
    movq %rax, 0(%rdi)
    movq %rbx, 8(%rdi)
    movq %r15, 16(%rdi)
    movq %rcx, 24(%rdi)
    POP_ALL
    ret
    .size cuzk_fr_mul_adx, .-cuzk_fr_mul_adx

    .section .note.GNU-stack,"",@progbits
