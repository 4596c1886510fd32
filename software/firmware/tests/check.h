/* SPDX-License-Identifier: BSD-2-Clause */
/* The host test programs' checks (each program is one translation unit that includes this):
 * check() counts a check and prints "FAIL <what>" when it fails; summary() prints
 * "<n> checks, <m> failures" (the line tests/clib/test_clib.py looks for) and gives main's exit
 * status. A program made of named groups runs them through run_groups(), so that the harness
 * can run each group on its own: a group that crashes (a sanitizer stops the program at the
 * first fault) then fails alone and says which defect it is. */
#ifndef LD_TEST_CHECK_H
#define LD_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int failures, checks;

static void check(int cond, const char *what)
{
    checks++;
    if (!cond) {
        failures++;
        printf("FAIL %s\n", what);
    }
}

static int summary(void)
{
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}

/* What a buffer holds where a refused call may write nothing, and the check that it did not */
#define FILL 0xEE

/* every one of the n bytes at p is v (inline: not every program uses it) */
static inline int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = (const unsigned char *)p;
    while (n--)
        if (*b++ != v)
            return 0;
    return 1;
}

#define untouched(p, n) all_bytes(p, n, FILL)

typedef struct {
    const char *name;
    void (*run)(void);
} test_group;

/* argv[1..]: the groups to run (none: all of them; "--list": print their names, one a line).
 * An unknown name is an error (exit status 2), not a group that passes. Inline: a program
 * without groups (test_host.c) leaves it unused. */
static inline int run_groups(const test_group *groups, size_t ngroups, int argc, char **argv)
{
    size_t g;
    int a;

    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (g = 0; g < ngroups; g++)
            printf("%s\n", groups[g].name);
        return 0;
    }
    for (a = 1; a < argc; a++) {
        for (g = 0; g < ngroups && strcmp(argv[a], groups[g].name) != 0; g++)
            ;
        if (g == ngroups) {
            printf("no test group %s\n", argv[a]);
            return 2;
        }
    }
    for (g = 0; g < ngroups; g++) {
        for (a = 1; a < argc && strcmp(argv[a], groups[g].name) != 0; a++)
            ;
        if (argc == 1 || a < argc)
            groups[g].run();
    }
    return summary();
}

#endif
