/* The run-time CPU back ends (src/field/cpu.h): detection against the kernel's view of
 * the CPU (the "flags" line of /proc/cpuinfo, an independent source: Linux decodes CPUID
 * and XCR0 itself), the selection API and its errors, and CUZK_CPU handling. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fp.h"

/* true iff the first "flags" line of /proc/cpuinfo lists every flag in `need` (space
 * separated); -1 when there is no such line (not Linux, not x86). */
static int cpuinfo_has(const char *need)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int res = -1;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = ' ';
        res = 1;
        char want[256];
        snprintf(want, sizeof want, "%s", need);
        for (char *tok = strtok(want, " "); tok; tok = strtok(NULL, " ")) {
            char pat[64];
            snprintf(pat, sizeof pat, " %s ", tok);
            if (!strstr(line, pat))
                res = 0;
        }
        break;
    }
    free(line);
    fclose(f);
    return res;
}

int main(void)
{
    cuzk_error err;
    CHECK(strcmp(cuzk_cpu_name(CUZK_CPU_PORTABLE), "portable") == 0 &&
              strcmp(cuzk_cpu_name(CUZK_CPU_ADX), "adx") == 0 && strcmp(cuzk_cpu_name(CUZK_CPU_IFMA), "ifma") == 0 &&
              cuzk_cpu_name((cuzk_cpu_backend)7) == NULL,
          "back end names");
    CHECK(cuzk_cpu_supported(CUZK_CPU_PORTABLE), "portable must always be supported");
    CHECK(!cuzk_cpu_supported((cuzk_cpu_backend)3), "back end 3 supported");

    int adx = cpuinfo_has("bmi2 adx"), ifma = cpuinfo_has("bmi2 adx avx512f avx512vl avx512dq avx512bw avx512ifma");
    bool x86 = strcmp(fp_backend_name(), "x86_64") == 0;
    printf("build %s; /proc/cpuinfo: adx %d, ifma %d; supported: adx %d, ifma %d\n", fp_backend_name(), adx, ifma,
           cuzk_cpu_supported(CUZK_CPU_ADX), cuzk_cpu_supported(CUZK_CPU_IFMA));
    if (!x86) {
        CHECK(!cuzk_cpu_supported(CUZK_CPU_ADX) && !cuzk_cpu_supported(CUZK_CPU_IFMA),
              "portable build claims an x86-64 back end");
    } else if (adx >= 0) {
        CHECK(cuzk_cpu_supported(CUZK_CPU_ADX) == (adx == 1), "adx supported = %d but /proc/cpuinfo says %d",
              cuzk_cpu_supported(CUZK_CPU_ADX), adx);
#ifdef CUZK_HAVE_IFMA
        CHECK(cuzk_cpu_supported(CUZK_CPU_IFMA) == (ifma == 1), "ifma supported = %d but /proc/cpuinfo says %d",
              cuzk_cpu_supported(CUZK_CPU_IFMA), ifma);
#else
        CHECK(!cuzk_cpu_supported(CUZK_CPU_IFMA), "ifma supported in a build without IFMA code");
#endif
    }
    cuzk_cpu_backend best = cuzk_cpu_best();
    CHECK(cuzk_cpu_supported(best), "best back end not supported");
    for (int b = 0; b < CUZK_CPU_COUNT; b++)
        if (cuzk_cpu_supported((cuzk_cpu_backend)b))
            CHECK(b <= (int)best, "best is %s but %s is supported", cuzk_cpu_name(best),
                  cuzk_cpu_name((cuzk_cpu_backend)b));

    /* selection and its errors; the active back end is unchanged on error */
    CHECK(cuzk_cpu_select(CUZK_CPU_PORTABLE, &err) == CUZK_OK && cuzk_cpu_active() == CUZK_CPU_PORTABLE,
          "select portable");
    CHECK(cuzk_cpu_select((cuzk_cpu_backend)5, &err) == CUZK_E_INVALID_ARG && cuzk_cpu_active() == CUZK_CPU_PORTABLE,
          "select 5 accepted");
    CHECK(cuzk_cpu_select_name("avx9", &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "avx9") &&
              strstr(err.msg, "portable, adx or ifma"),
          "unknown name: %s", err.msg);
    for (int b = 0; b < CUZK_CPU_COUNT; b++) {
        cuzk_status st = cuzk_cpu_select_name(cuzk_cpu_name((cuzk_cpu_backend)b), &err);
        if (cuzk_cpu_supported((cuzk_cpu_backend)b))
            CHECK(st == CUZK_OK && cuzk_cpu_active() == (cuzk_cpu_backend)b, "select %s",
                  cuzk_cpu_name((cuzk_cpu_backend)b));
        else
            CHECK(st == CUZK_E_UNSUPPORTED && strstr(err.msg, cuzk_cpu_name((cuzk_cpu_backend)b)) &&
                      cuzk_cpu_active() != (cuzk_cpu_backend)b,
                  "unsupported %s accepted (%s)", cuzk_cpu_name((cuzk_cpu_backend)b), err.msg);
    }

    /* CUZK_CPU */
    setenv("CUZK_CPU", "portable", 1);
    CHECK(cuzk_cpu_select_env(&err) == CUZK_OK && cuzk_cpu_active() == CUZK_CPU_PORTABLE, "CUZK_CPU=portable");
    setenv("CUZK_CPU", "fast", 1);
    CHECK(cuzk_cpu_select_env(&err) == CUZK_E_INVALID_ARG && strstr(err.msg, "CUZK_CPU=fast") &&
              cuzk_cpu_active() == CUZK_CPU_PORTABLE,
          "CUZK_CPU=fast: %s", err.msg);
    setenv("CUZK_CPU", "", 1);
    CHECK(cuzk_cpu_select_env(&err) == CUZK_OK && cuzk_cpu_active() == best, "empty CUZK_CPU is the best");
    unsetenv("CUZK_CPU");
    CHECK(cuzk_cpu_select_env(&err) == CUZK_OK && cuzk_cpu_active() == best, "unset CUZK_CPU is the best");
    return check_summary("field_cpu");
}
