/* Double-width ("lazy reduction") Fp and Fp2 arithmetic with mulx/adcx/adox (BMI2 + ADX),
 * x86-64 System V. Contracts in field/wide.h; the portable C twins are in wide.c.
 *
 *   void cuzk_fp_mulw_adx(uint64_t r[12], const uint64_t a[6], const uint64_t b[6]);
 *       r = a * b, the plain 768-bit product (a, b any 6-limb integers); r must not
 *       overlap a or b.
 *   void cuzk_fp_redc_adx(uint64_t r[6], const uint64_t t[12]);
 *       r = t * 2^-384 mod p, fully reduced, for t < p * 2^384; r may alias t.
 *   void cuzk_fp2_mulw_adx(uint64_t r[24], const uint64_t a[12], const uint64_t b[12]);
 *       Fp2 product without reduction (Karatsuba): r.c0 = a0 b0 - a1 b1 mod p 2^384,
 *       r.c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1; a, b fully reduced; r must not overlap.
 *   void cuzk_fp2_sqrw_adx(uint64_t r[24], const uint64_t a[12]);
 *       r.c0 = (a0 + a1)(a0 - a1), r.c1 = 2 a0 a1, unreduced; r must not overlap a.
 *   void cuzk_fp2_mul_adx(uint64_t r[12], const uint64_t a[12], const uint64_t b[12]);
 *   void cuzk_fp2_sqr_adx(uint64_t r[12], const uint64_t a[12]);
 *       the same followed by two Montgomery reductions: Montgomery-form Fp2 product /
 *       square, fully reduced; r may alias a or b.
 *
 * Algorithms: operand-scanning schoolbook product with the two carry chains of each row on
 * CF (adcx, low halves) and OF (adox, high halves) (Ozturk et al., "New Instructions
 * Supporting Large Integer Arithmetic on Intel Architecture Processors", Intel white paper
 * 327831, 2012); word-by-word Montgomery reduction (Montgomery 1985) of the low half, then
 * the high half added and one conditional subtraction: for t < p 2^384 the sum is below 2p.
 * Karatsuba in Fp2 with one reduction per coefficient is the lazy reduction of Aranha,
 * Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for computing pairings over
 * ordinary curves" (EUROCRYPT 2011) §3. Double-width values are kept in [0, p 2^384): a
 * difference that borrows gets p 2^384 added (p added to its high half), which Montgomery
 * reduction maps to the same residue.
 */

    .section .rodata
    .p2align 5
/* zero_or_p: 0 (6 limbs) then p (fp_modulus) */
zero_or_p:
    .quad 0, 0, 0, 0, 0, 0
fp_modulus:
    .quad 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624
    .quad 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a

    .text

#include "field/mont_adx.inc"

/* 12 limbs at ro(rb) = 6 limbs at ao(ab) times 6 limbs at bo(bb); the output is written
 * row by row, so it must not overlap the inputs. Clobbers rax, rbx, rdx, r8-r15. */
.macro MULW6 ao, ab, bo, bb, ro, rb
    ZERO_R8_R14
    MULROW6 \ao, \ab, \bo+0(\bb), %r8, %r9, %r10, %r11, %r12, %r13, %r14
    movq %r8, \ro+0(\rb)
    xorl %r8d, %r8d
    MULROW6 \ao, \ab, \bo+8(\bb), %r9, %r10, %r11, %r12, %r13, %r14, %r8
    movq %r9, \ro+8(\rb)
    xorl %r9d, %r9d
    MULROW6 \ao, \ab, \bo+16(\bb), %r10, %r11, %r12, %r13, %r14, %r8, %r9
    movq %r10, \ro+16(\rb)
    xorl %r10d, %r10d
    MULROW6 \ao, \ab, \bo+24(\bb), %r11, %r12, %r13, %r14, %r8, %r9, %r10
    movq %r11, \ro+24(\rb)
    xorl %r11d, %r11d
    MULROW6 \ao, \ab, \bo+32(\bb), %r12, %r13, %r14, %r8, %r9, %r10, %r11
    movq %r12, \ro+32(\rb)
    xorl %r12d, %r12d
    MULROW6 \ao, \ab, \bo+40(\bb), %r13, %r14, %r8, %r9, %r10, %r11, %r12
    movq %r13, \ro+40(\rb)
    movq %r14, \ro+48(\rb)
    movq %r8, \ro+56(\rb)
    movq %r9, \ro+64(\rb)
    movq %r10, \ro+72(\rb)
    movq %r11, \ro+80(\rb)
    movq %r12, \ro+88(\rb)
.endm

/* 6 limbs at ro(rb) = Montgomery reduction of the 12 limbs at to(tb) (< p 2^384), fully
 * reduced. The input is read before the output is written (they may alias). Clobbers
 * rax, rbx, rdx, rbp, r8-r15. */
.macro REDC6 to, tb, ro, rb
    movq \to+0(\tb), %r8
    movq \to+8(\tb), %r9
    movq \to+16(\tb), %r10
    movq \to+24(\tb), %r11
    movq \to+32(\tb), %r12
    movq \to+40(\tb), %r13
    xorl %r14d, %r14d
    REDROUND6 %r8, %r9, %r10, %r11, %r12, %r13, %r14
    REDROUND6 %r9, %r10, %r11, %r12, %r13, %r14, %r8
    REDROUND6 %r10, %r11, %r12, %r13, %r14, %r8, %r9
    REDROUND6 %r11, %r12, %r13, %r14, %r8, %r9, %r10
    REDROUND6 %r12, %r13, %r14, %r8, %r9, %r10, %r11
    REDROUND6 %r13, %r14, %r8, %r9, %r10, %r11, %r12
    /* U = r14, r8, r9, r10, r11, r12 (<= p); add the high half (< p) */
    addq \to+48(\tb), %r14
    adcq \to+56(\tb), %r8
    adcq \to+64(\tb), %r9
    adcq \to+72(\tb), %r10
    adcq \to+80(\tb), %r11
    adcq \to+88(\tb), %r12
    /* subtract p, keep the sum on borrow */
    movq %r14, %rax
    subq fp_modulus+0(%rip), %rax
    movq %r8, %rbx
    sbbq fp_modulus+8(%rip), %rbx
    movq %r9, %r15
    sbbq fp_modulus+16(%rip), %r15
    movq %r10, %rdx
    sbbq fp_modulus+24(%rip), %rdx
    movq %r11, %r13
    sbbq fp_modulus+32(%rip), %r13
    movq %r12, %rbp
    sbbq fp_modulus+40(%rip), %rbp
    cmovcq %r14, %rax
    cmovcq %r8, %rbx
    cmovcq %r9, %r15
    cmovcq %r10, %rdx
    cmovcq %r11, %r13
    cmovcq %r12, %rbp
    movq %rax, \ro+0(\rb)
    movq %rbx, \ro+8(\rb)
    movq %r15, \ro+16(\rb)
    movq %rdx, \ro+24(\rb)
    movq %r13, \ro+32(\rb)
    movq %rbp, \ro+40(\rb)
.endm

/* 6 limbs at ro(rb) = x0 + x1 (6 limbs each at xo(xb), no reduction: both < p, so the sum
 * is below 2p < 2^382). Clobbers r8-r13. */
.macro ADD6 xo, xb, yo, yb, ro, rb
    movq \xo+0(\xb), %r8
    movq \xo+8(\xb), %r9
    movq \xo+16(\xb), %r10
    movq \xo+24(\xb), %r11
    movq \xo+32(\xb), %r12
    movq \xo+40(\xb), %r13
    addq \yo+0(\yb), %r8
    adcq \yo+8(\yb), %r9
    adcq \yo+16(\yb), %r10
    adcq \yo+24(\yb), %r11
    adcq \yo+32(\yb), %r12
    adcq \yo+40(\yb), %r13
    movq %r8, \ro+0(\rb)
    movq %r9, \ro+8(\rb)
    movq %r10, \ro+16(\rb)
    movq %r11, \ro+24(\rb)
    movq %r12, \ro+32(\rb)
    movq %r13, \ro+40(\rb)
.endm

/* The 12 general registers that hold one double-width value, low to high. */
#define W0 %r8
#define W1 %r9
#define W2 %r10
#define W3 %r11
#define W4 %r12
#define W5 %r13
#define W6 %r14
#define W7 %r15
#define W8 %rax
#define W9 %rbx
#define W10 %rdx
#define W11 %rbp

.macro LOADW o, b
    movq \o+0(\b), W0
    movq \o+8(\b), W1
    movq \o+16(\b), W2
    movq \o+24(\b), W3
    movq \o+32(\b), W4
    movq \o+40(\b), W5
    movq \o+48(\b), W6
    movq \o+56(\b), W7
    movq \o+64(\b), W8
    movq \o+72(\b), W9
    movq \o+80(\b), W10
    movq \o+88(\b), W11
.endm

.macro STOREW o, b
    movq W0, \o+0(\b)
    movq W1, \o+8(\b)
    movq W2, \o+16(\b)
    movq W3, \o+24(\b)
    movq W4, \o+32(\b)
    movq W5, \o+40(\b)
    movq W6, \o+48(\b)
    movq W7, \o+56(\b)
    movq W8, \o+64(\b)
    movq W9, \o+72(\b)
    movq W10, \o+80(\b)
    movq W11, \o+88(\b)
.endm

.macro SUBW o, b
    subq \o+0(\b), W0
    sbbq \o+8(\b), W1
    sbbq \o+16(\b), W2
    sbbq \o+24(\b), W3
    sbbq \o+32(\b), W4
    sbbq \o+40(\b), W5
    sbbq \o+48(\b), W6
    sbbq \o+56(\b), W7
    sbbq \o+64(\b), W8
    sbbq \o+72(\b), W9
    sbbq \o+80(\b), W10
    sbbq \o+88(\b), W11
.endm

/* After SUBW: add p to the high half when the subtraction borrowed (0 or p is picked from
 * zero_or_p before the carry chain: and/or would clear CF inside it). Clobbers rsi, rcx. */
.macro FIXW
    sbbq %rsi, %rsi
    andl $48, %esi
    leaq zero_or_p(%rip), %rcx
    addq %rsi, %rcx
    addq 0(%rcx), W6
    adcq 8(%rcx), W7
    adcq 16(%rcx), W8
    adcq 24(%rcx), W9
    adcq 32(%rcx), W10
    adcq 40(%rcx), W11
.endm

/* Karatsuba Fp2 product of a (rsi) and b (rcx) into c0 at ro(rb), c1 at ro+96(rb); stack
 * scratch: 0..95 (a0 + a1, b0 + b1), 96..191 (a1 b1). Clobbers everything but rdi, rsp. */
.macro FP2_MULW ro, rb
    ADD6 0, %rsi, 48, %rsi, 0, %rsp
    ADD6 0, %rcx, 48, %rcx, 48, %rsp
    MULW6 0, %rsi, 0, %rcx, \ro, \rb
    MULW6 48, %rsi, 48, %rcx, 96, %rsp
    MULW6 0, %rsp, 48, %rsp, \ro+96, \rb
    /* c1 = t2 - t0 - t1: exact, a0 b1 + a1 b0 >= 0 */
    LOADW \ro+96, \rb
    SUBW \ro, \rb
    SUBW 96, %rsp
    STOREW \ro+96, \rb
    /* c0 = t0 - t1 mod p 2^384 */
    LOADW \ro, \rb
    SUBW 96, %rsp
    FIXW
    STOREW \ro, \rb
.endm

/* c0 = (a0 + a1)(a0 - a1), c1 = (2 a0) a1 for a at rsi, into ro(rb); stack scratch
 * 0..143. Clobbers everything but rsi, rdi, rsp. */
.macro FP2_SQRW ro, rb
    ADD6 0, %rsi, 48, %rsi, 0, %rsp
    ADD6 0, %rsi, 0, %rsi, 96, %rsp
    /* a0 - a1 mod p */
    movq 0(%rsi), %r8
    movq 8(%rsi), %r9
    movq 16(%rsi), %r10
    movq 24(%rsi), %r11
    movq 32(%rsi), %r12
    movq 40(%rsi), %r13
    subq 48(%rsi), %r8
    sbbq 56(%rsi), %r9
    sbbq 64(%rsi), %r10
    sbbq 72(%rsi), %r11
    sbbq 80(%rsi), %r12
    sbbq 88(%rsi), %r13
    sbbq %rcx, %rcx
    andl $48, %ecx
    leaq zero_or_p(%rip), %rax
    addq %rcx, %rax
    addq 0(%rax), %r8
    adcq 8(%rax), %r9
    adcq 16(%rax), %r10
    adcq 24(%rax), %r11
    adcq 32(%rax), %r12
    adcq 40(%rax), %r13
    movq %r8, 48(%rsp)
    movq %r9, 56(%rsp)
    movq %r10, 64(%rsp)
    movq %r11, 72(%rsp)
    movq %r12, 80(%rsp)
    movq %r13, 88(%rsp)
    MULW6 0, %rsp, 48, %rsp, \ro, \rb
    MULW6 96, %rsp, 48, %rsi, \ro+96, \rb
.endm

.macro PROLOGUE frame
    pushq %rbx
    pushq %rbp
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $\frame, %rsp
.endm

.macro EPILOGUE frame
    addq $\frame, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbp
    popq %rbx
    ret
.endm

    .globl cuzk_fp_mulw_adx
    .type cuzk_fp_mulw_adx, @function
    .p2align 5
cuzk_fp_mulw_adx:
    PROLOGUE 8
    movq %rdx, %rcx
    MULW6 0, %rsi, 0, %rcx, 0, %rdi
    EPILOGUE 8
    .size cuzk_fp_mulw_adx, .-cuzk_fp_mulw_adx

    .globl cuzk_fp_redc_adx
    .type cuzk_fp_redc_adx, @function
    .p2align 5
cuzk_fp_redc_adx:
    PROLOGUE 8
    REDC6 0, %rsi, 0, %rdi
    EPILOGUE 8
    .size cuzk_fp_redc_adx, .-cuzk_fp_redc_adx

    .globl cuzk_fp2_mulw_adx
    .type cuzk_fp2_mulw_adx, @function
    .p2align 5
cuzk_fp2_mulw_adx:
    PROLOGUE 200
    movq %rdx, %rcx
    FP2_MULW 0, %rdi
    EPILOGUE 200
    .size cuzk_fp2_mulw_adx, .-cuzk_fp2_mulw_adx

    .globl cuzk_fp2_sqrw_adx
    .type cuzk_fp2_sqrw_adx, @function
    .p2align 5
cuzk_fp2_sqrw_adx:
    PROLOGUE 152
    FP2_SQRW 0, %rdi
    EPILOGUE 152
    .size cuzk_fp2_sqrw_adx, .-cuzk_fp2_sqrw_adx

    .globl cuzk_fp2_mul_adx
    .type cuzk_fp2_mul_adx, @function
    .p2align 5
cuzk_fp2_mul_adx:
    PROLOGUE 392
    movq %rdx, %rcx
    FP2_MULW 192, %rsp
    REDC6 192, %rsp, 0, %rdi
    REDC6 288, %rsp, 48, %rdi
    EPILOGUE 392
    .size cuzk_fp2_mul_adx, .-cuzk_fp2_mul_adx

    .globl cuzk_fp2_sqr_adx
    .type cuzk_fp2_sqr_adx, @function
    .p2align 5
cuzk_fp2_sqr_adx:
    PROLOGUE 344
    FP2_SQRW 144, %rsp
    REDC6 144, %rsp, 0, %rdi
    REDC6 240, %rsp, 48, %rdi
    EPILOGUE 344
    .size cuzk_fp2_sqr_adx, .-cuzk_fp2_sqr_adx

    .section .note.GNU-stack,"",@progbits
