/* The cases of cpath, one per ctest test: `test_cpath NAME` runs one and exits non-zero if it fails. */
#include "cpath.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT_STR(got, want)                                                              \
    do {                                                                                   \
        const char *g_ = (got), *w_ = (want);                                              \
        if (strcmp(g_, w_) != 0) {                                                         \
            fprintf(stderr, "%s:%d: %s is \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, g_, w_); \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static void basename_plain(void)
{
    EXPECT_STR(cpath_basename("main.c"), "main.c");
}

static void basename_nested(void)
{
    EXPECT_STR(cpath_basename("src/lib/main.c"), "main.c");
    EXPECT_STR(cpath_basename("/etc/"), "");
}

static void extension_plain(void)
{
    EXPECT_STR(cpath_extension("notes.txt"), "txt");
    EXPECT_STR(cpath_extension("docs/notes.md"), "md");
}

static void extension_last_dot(void)
{
    EXPECT_STR(cpath_extension("archive.tar.gz"), "gz");
}

static void extension_none(void)
{
    EXPECT_STR(cpath_extension("Makefile"), "");
}

static void join_adds_separator(void)
{
    char buf[32];
    cpath_join(buf, sizeof buf, "src", "main.c");
    EXPECT_STR(buf, "src/main.c");
}

static void join_keeps_one_separator(void)
{
    char buf[32];
    cpath_join(buf, sizeof buf, "src/", "main.c");
    EXPECT_STR(buf, "src/main.c");
    cpath_join(buf, sizeof buf, "", "main.c");
    EXPECT_STR(buf, "main.c");
}

static void join_reports_truncation(void)
{
    char buf[8];
    size_t n = cpath_join(buf, sizeof buf, "include", "cpath.h");
    if (n != strlen("include/cpath.h")) {
        fprintf(stderr, "cpath_join returned %zu\n", n);
        failures++;
    }
    EXPECT_STR(buf, "include");
}

static const struct {
    const char *name;
    void (*run)(void);
} cases[] = {
    {"basename_plain", basename_plain},
    {"basename_nested", basename_nested},
    {"extension_plain", extension_plain},
    {"extension_last_dot", extension_last_dot},
    {"extension_none", extension_none},
    {"join_adds_separator", join_adds_separator},
    {"join_keeps_one_separator", join_keeps_one_separator},
    {"join_reports_truncation", join_reports_truncation},
};

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE\n", argv[0]);
        return 2;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (strcmp(cases[i].name, argv[1]) == 0) {
            cases[i].run();
            return failures ? 1 : 0;
        }
    }
    fprintf(stderr, "no case %s\n", argv[1]);
    return 2;
}
