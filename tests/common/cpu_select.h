/* Test helper: choose the CPU back end named by CUZK_CPU (field/cpu.h) at the start of a
 * test program, so one test registered several times with CUZK_CPU=portable|adx|ifma
 * (cuzk_cpu_variants in tests/CMakeLists.txt) runs every back end. A back end this CPU
 * or build lacks exits 77 (ctest SKIP_RETURN_CODE); an unknown name exits 2. */
#ifndef CUZK_TESTS_CPU_SELECT_H
#define CUZK_TESTS_CPU_SELECT_H

#include <stdio.h>
#include <stdlib.h>

#include "field/cpu.h"

static inline void check_select_cpu(void)
{
    cuzk_error err;
    cuzk_status st = cuzk_cpu_select_env(&err);
    if (st == CUZK_E_UNSUPPORTED) {
        printf("skipped: %s\n", err.msg);
        exit(77);
    }
    if (st != CUZK_OK) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    printf("CPU back end: %s\n", cuzk_cpu_name(cuzk_cpu_active()));
}

#endif
