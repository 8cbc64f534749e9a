/* Common layer: atomic writer (success, failure mid-write, mode preservation, temporary
 * files removed on SIGINT/SIGTERM/SIGHUP), file mapper and whole-file reader (regular files,
 * pipes, a FIFO without a writer, size limits), decimal <-> limb conversions against known
 * values, hexadecimal. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common/decimal.h"
#include "common/file_io.h"
#include "common/hex.h"

static int emit_text(FILE *out, const void *ctx)
{
    return fputs((const char *)ctx, out) < 0 ? EIO : 0;
}

static int emit_fail_midway(FILE *out, const void *ctx)
{
    (void)ctx;
    fputs("partial", out);
    return ENOSPC;
}

static size_t count_entries(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    if (p) {
        if (fscanf(p, "%zu", &n) != 1)
            n = 0;
        pclose(p);
    }
    return n;
}

static void file_io(void)
{
    char dir[] = "/tmp/cuzk-test-common-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[600];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    cuzk_error err = {0};

    CHECK(cuzk_write_atomic(path, emit_text, "first", &err) == CUZK_OK, "atomic write: %s", err.msg);
    cuzk_mapped_file f;
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK && f.len == 5 && !memcmp(f.data, "first", 5),
          "map what was written");
    cuzk_file_unmap(&f);
    CHECK(f.data == NULL && f.len == 0, "unmap clears");

    /* a failing writer leaves the old file intact and no temporary behind */
    chmod(path, 0600);
    CHECK(cuzk_write_atomic(path, emit_fail_midway, NULL, &err) == CUZK_E_IO && strstr(err.msg, path),
          "failure reported with the path: %s", err.msg);
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK && f.len == 5 && !memcmp(f.data, "first", 5),
          "old content survives a failed write");
    cuzk_file_unmap(&f);
    CHECK(count_entries(dir) == 1, "no temporary file left behind");

    /* replacing keeps the mode of the replaced file */
    CHECK(cuzk_write_atomic(path, emit_text, "second!", &err) == CUZK_OK, "rewrite");
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "mode kept: %o", st.st_mode & 0777);

    /* a directory that does not exist */
    char bad[700];
    snprintf(bad, sizeof bad, "%s/missing/x", dir);
    CHECK(cuzk_write_atomic(bad, emit_text, "x", &err) == CUZK_E_IO, "missing directory is an IO error");

    /* mapper errors */
    char empty[600];
    snprintf(empty, sizeof empty, "%s/empty", dir);
    FILE *e = fopen(empty, "w");
    if (e)
        fclose(e);
    CHECK(cuzk_file_map(&f, empty, &err) == CUZK_E_FORMAT && strstr(err.msg, "empty"), "empty file: %s",
          err.msg);
    CHECK(cuzk_file_map(&f, bad, &err) == CUZK_E_IO, "missing file");
    CHECK(cuzk_file_map(&f, dir, &err) == CUZK_E_IO, "a directory is not a regular file");

    /* two-phase: staged files leave their destinations alone until commit */
    char p2[600];
    snprintf(p2, sizeof p2, "%s/second.txt", dir);
    cuzk_staged_file sa, sb;
    CHECK(cuzk_write_stage(&sa, path, emit_text, "staged", &err) == CUZK_OK, "stage: %s", err.msg);
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK && f.len == 7 && !memcmp(f.data, "second!", 7),
          "destination unchanged while staged");
    cuzk_file_unmap(&f);
    CHECK(cuzk_write_stage(&sb, p2, emit_text, "other", &err) == CUZK_OK, "second stage");
    cuzk_write_abort(&sb);
    CHECK(access(p2, F_OK) != 0, "aborted stage leaves no file");
    CHECK(cuzk_write_commit(&sa, &err) == CUZK_OK, "commit");
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK && f.len == 6 && !memcmp(f.data, "staged", 6),
          "commit replaced the destination");
    cuzk_file_unmap(&f);
    CHECK(count_entries(dir) == 2, "no temporaries after commit/abort (out.txt, empty)");

    /* a symbolic link is written through; non-regular files are refused untouched */
    char link[600], fifo[600];
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(symlink(path, link) == 0, "symlink");
    CHECK(cuzk_write_atomic(link, emit_text, "via link", &err) == CUZK_OK, "write through a link: %s", err.msg);
    struct stat ls;
    CHECK(lstat(link, &ls) == 0 && S_ISLNK(ls.st_mode), "the link is still a link");
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK && f.len == 8, "the link's target got the bytes");
    cuzk_file_unmap(&f);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
    CHECK(cuzk_write_atomic(fifo, emit_text, "x", &err) == CUZK_E_IO && strstr(err.msg, "not a regular file"),
          "a FIFO is refused: %s", err.msg);
    CHECK(lstat(fifo, &ls) == 0 && S_ISFIFO(ls.st_mode), "the FIFO is left as it was");
    CHECK(cuzk_write_atomic(dir, emit_text, "x", &err) == CUZK_E_IO, "a directory is refused");
    CHECK(cuzk_same_file(link, path) && !cuzk_same_file(path, p2), "same-file detection");

    unlink(fifo);
    unlink(link);
    unlink(path);
    unlink(empty);
    rmdir(dir);
}

/* Issue 13 item 2: inputs never block in open(2); non-regular files are named. */
static void input_files(void)
{
    char dir[] = "/tmp/cuzk-test-input-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[600], fifo[600];
    snprintf(path, sizeof path, "%s/in.txt", dir);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    cuzk_error err = {0};
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
    cuzk_mapped_file f;
    CHECK(cuzk_file_map(&f, fifo, &err) == CUZK_E_IO && strstr(err.msg, fifo) && strstr(err.msg, "FIFO"),
          "mapping a FIFO without a writer is refused at once: %s", err.msg);
    char *text;
    size_t len;
    CHECK(cuzk_file_read(fifo, 100, false, &text, &len, &err) == CUZK_E_IO && strstr(err.msg, "FIFO") && !text,
          "reading a FIFO where a regular file is needed: %s", err.msg);
    CHECK(cuzk_file_read(fifo, 100, true, &text, &len, &err) == CUZK_E_IO && strstr(err.msg, "nothing to read"),
          "a FIFO without a writer reads as nothing: %s", err.msg);
    CHECK(cuzk_file_read(dir, 100, true, &text, &len, &err) == CUZK_E_IO && strstr(err.msg, "directory"),
          "a directory: %s", err.msg);
    CHECK(cuzk_file_read(path, 100, true, &text, &len, &err) == CUZK_E_IO && strstr(err.msg, "No such file"),
          "missing file: %s", err.msg);

    CHECK(cuzk_write_atomic(path, emit_text, "0123456789", &err) == CUZK_OK, "write: %s", err.msg);
    CHECK(cuzk_file_read(path, 10, false, &text, &len, &err) == CUZK_OK && len == 10 &&
              !strcmp(text, "0123456789"),
          "regular file at the limit: %s", err.msg);
    free(text);
    CHECK(cuzk_file_read(path, 9, false, &text, &len, &err) == CUZK_E_FORMAT && strstr(err.msg, "limit of 9 bytes"),
          "regular file over the limit: %s", err.msg);
    CHECK(cuzk_file_read("/dev/null", 10, true, &text, &len, &err) == CUZK_OK && len == 0 && text && !*text,
          "/dev/null reads as empty: %s", err.msg);
    free(text);

    /* pipes with a writer, as bash's <(cmd) gives (/dev/fd/N): read to the end */
    for (int over = 0; over <= 1; over++) {
        int fds[2];
        CHECK(pipe(fds) == 0, "pipe");
        CHECK(write(fds[1], "abcdef", 6) == 6, "write pipe");
        close(fds[1]);
        char name[64];
        snprintf(name, sizeof name, "/proc/self/fd/%d", fds[0]);
        cuzk_status st = cuzk_file_read(name, over ? 5 : 6, true, &text, &len, &err);
        if (over)
            CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "limit of 5 bytes"), "pipe over the limit: %s", err.msg);
        else
            CHECK(st == CUZK_OK && len == 6 && !strcmp(text, "abcdef"), "pipe read: %s", err.msg);
        if (!st)
            free(text);
        close(fds[0]);
    }
    unlink(fifo);
    unlink(path);
    rmdir(dir);
}

/* Writes some bytes, then delivers `ctx` (a signal number) to the process. */
static int emit_then_signal(FILE *out, const void *ctx)
{
    fputs("partial output", out);
    fflush(out);
    raise(*(const int *)ctx);
    return 0;
}

/* In a child: install the cleanup handlers, then get `sig` while writing `path`
 * (staged == 1: after staging, before commit). Returns the child's wait status. */
static int write_interrupted(const char *path, int sig, int staged, int ignore)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (ignore)
            signal(sig, SIG_IGN);
        cuzk_write_cleanup_on_signals();
        cuzk_error err;
        if (staged) {
            cuzk_staged_file sf;
            if (cuzk_write_stage(&sf, path, emit_text, "staged", &err) == CUZK_OK)
                raise(sig);
            _exit(3);
        }
        cuzk_write_atomic(path, emit_then_signal, &sig, &err);
        _exit(3);
    }
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return status;
}

/* Issue 13 item 5: SIGINT/SIGTERM/SIGHUP during a write leave no *.tmp.XXXXXX behind. */
static void signal_cleanup(void)
{
    char dir[] = "/tmp/cuzk-test-signal-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char path[600];
    snprintf(path, sizeof path, "%s/out.zkey", dir);
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (int i = 0; i < 3; i++)
        for (int staged = 0; staged <= 1; staged++) {
            int status = write_interrupted(path, sigs[i], staged, 0);
            CHECK(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i], "signal %d (staged %d) ends the writer: %#x",
                  sigs[i], staged, status);
            CHECK(count_entries(dir) == 0, "signal %d (staged %d): no file left behind (%zu entries)", sigs[i],
                  staged, count_entries(dir));
        }
    /* an ignored signal stays ignored (nohup): the write goes on */
    int status = write_interrupted(path, SIGHUP, 0, 1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3 && access(path, F_OK) == 0 && count_entries(dir) == 1,
          "ignored SIGHUP: the write completes: %#x", status);
    unlink(path);
    rmdir(dir);
}

static void decimal(void)
{
    /* r = BLS12-381 scalar field order, decimal from the curve specification */
    static const char *r_dec = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    static const uint64_t r_limbs[4] = {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                                        0x73eda753299d7d48ULL};
    uint64_t l[4];
    CHECK(decimal_to_limbs(l, 4, r_dec) && !memcmp(l, r_limbs, sizeof l), "parse r");
    char buf[100];
    CHECK(!strcmp(limbs_to_decimal(buf, sizeof buf, r_limbs, 4), r_dec), "print r: %s", buf);
    uint64_t zero[2] = {0, 0};
    CHECK(!strcmp(limbs_to_decimal(buf, sizeof buf, zero, 2), "0"), "print 0");
    CHECK(decimal_to_limbs(l, 1, "18446744073709551615") && l[0] == UINT64_MAX, "2^64-1 fits one limb");
    CHECK(!decimal_to_limbs(l, 1, "18446744073709551616"), "2^64 overflows one limb");
    CHECK(!decimal_to_limbs(l, 4, ""), "empty string rejected");
    CHECK(!decimal_to_limbs(l, 4, "12a"), "non-digit rejected");
    CHECK(!decimal_to_limbs(l, 4, "-1"), "sign rejected");
    CHECK(decimal_to_limbs(l, 2, "000123") && l[0] == 123 && l[1] == 0, "leading zeros");
}

static void hex(void)
{
    static const uint8_t b[4] = {0x00, 0x9f, 0xa0, 0xff};
    char out[9];
    CHECK(!strcmp(cuzk_hex(out, b, 4), "009fa0ff"), "hex of 00 9f a0 ff: %s", out);
    CHECK(!strcmp(cuzk_hex(out, b, 0), ""), "hex of nothing");
    uint8_t r[4];
    CHECK(cuzk_unhex(r, "009fA0ff", 4) && !memcmp(r, b, 4), "unhex 009fA0ff");
    CHECK(cuzk_unhex(r, "0x009fa0FF", 4) && !memcmp(r, b, 4), "unhex with 0x");
    static const char *const bad[] = {"009fa0f", "009fa0ff0", "009fa0fg", " 09fa0ff", "+09fa0ff", "0x", "", NULL};
    for (int i = 0; bad[i]; i++)
        CHECK(!cuzk_unhex(r, bad[i], 4), "unhex refuses '%s'", bad[i]);
    CHECK(!cuzk_unhex(r, NULL, 4), "unhex refuses NULL");
}

int main(void)
{
    file_io();
    input_files();
    signal_cleanup();
    decimal();
    hex();
    return check_summary("common");
}
