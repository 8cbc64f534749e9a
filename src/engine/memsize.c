/* Size strings and the "auto" memory budget (budget.h). */
#include "engine/budget.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

cuzk_status cuzk_parse_size(const char *s, uint64_t *out, cuzk_error *err)
{
    static const struct {
        const char *suffix;
        uint64_t mult;
    } units[] = {
        {"", 1},
        {"B", 1},
        {"KiB", 1ull << 10},
        {"MiB", 1ull << 20},
        {"GiB", 1ull << 30},
        {"TiB", 1ull << 40},
        {"KB", 1000ull},
        {"MB", 1000000ull},
        {"GB", 1000000000ull},
        {"TB", 1000000000000ull},
    };
    if (!s)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "size string is NULL");
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)*p))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "size '%s': expected a decimal number of bytes", s);
    uint64_t n = 0;
    while (isdigit((unsigned char)*p)) {
        uint64_t d = (uint64_t)(*p - '0');
        if (n > (UINT64_MAX - d) / 10)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "size '%s' overflows 64 bits", s);
        n = n * 10 + d;
        p++;
    }
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        len--;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strlen(units[i].suffix) == len && strncmp(p, units[i].suffix, len) == 0) {
            if (n != 0 && units[i].mult > UINT64_MAX / n)
                return cuzk_fail(err, CUZK_E_INVALID_ARG, "size '%s' overflows 64 bits", s);
            *out = n * units[i].mult;
            return CUZK_OK;
        }
    }
    return cuzk_fail(err, CUZK_E_INVALID_ARG,
                     "size '%s': unknown unit '%.*s' (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)", s,
                     (int)len, p);
}

cuzk_status cuzk_meminfo_total(const char *path, uint64_t *out, cuzk_error *err)
{
    if (!path)
        path = "/proc/meminfo";
    FILE *f = fopen(path, "r");
    if (!f)
        return cuzk_fail(err, CUZK_E_IO, "cannot open %s: %s", path, strerror(errno));
    char line[256];
    cuzk_status st = cuzk_fail(err, CUZK_E_FORMAT, "%s: no 'MemTotal: <n> kB' line", path);
    while (fgets(line, sizeof line, f)) {
        unsigned long long kb;
        char unit[8];
        if (sscanf(line, "MemTotal: %llu %7s", &kb, unit) == 2) {
            if (strcmp(unit, "kB") != 0 || kb > UINT64_MAX / 1024) {
                st = cuzk_fail(err, CUZK_E_FORMAT, "%s: MemTotal line '%s' is not '<n> kB'", path, line);
            } else {
                *out = (uint64_t)kb * 1024;
                st = CUZK_OK;
            }
            break;
        }
    }
    fclose(f);
    return st;
}

cuzk_status cuzk_budget_resolve_total(bool is_auto, uint64_t explicit_bytes, uint64_t safety_margin,
                                      const char *meminfo_path, uint64_t *out, cuzk_error *err)
{
    if (!is_auto) {
        if (explicit_bytes == 0)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "memory total_budget must be 'auto' or >= 1 byte, got 0");
        *out = explicit_bytes;
        return CUZK_OK;
    }
    uint64_t mem_total;
    cuzk_status st = cuzk_meminfo_total(meminfo_path, &mem_total, err);
    if (st != CUZK_OK)
        return st;
    if (safety_margin >= mem_total)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "memory safety_margin %llu bytes leaves no budget: MemTotal is %llu bytes",
                         (unsigned long long)safety_margin, (unsigned long long)mem_total);
    *out = mem_total - safety_margin;
    return CUZK_OK;
}
