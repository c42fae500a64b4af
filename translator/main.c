/* main.c - the axonc command line (axon-spec.md section 6).
 *
 *   axonc check FILE.axon
 *   axonc emit FILE.axon [-o OUT.h] [--prefix P] [-MD] [-MF DEPFILE]
 *   axonc --help | --version
 * Exit status: 0 success, 1 an error in the input, 2 a usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"

#ifndef AXONC_VERSION
#define AXONC_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: axonc check FILE.axon\n"
    "       axonc emit FILE.axon [-o OUT.h] [--prefix P] [-MD] [-MF DEPFILE]\n"
    "       axonc --help | --version\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "axonc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

static int cmd_check(int argc, char **argv)
{
    const char *file = NULL;
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != 0)
            return usage_error("unknown option '%s' for check", argv[i]);
        if (file)
            return usage_error("check takes one file (got '%s' too)", argv[i]);
        file = argv[i];
    }
    if (!file)
        return usage_error("%s", "check needs a file");
    Compilation cp;
    int rc = compile_file(&cp, file, stderr);
    if (rc == 0) {
        const char *sigs = compile_signatures(&cp);
        if (sigs)
            fputs(sigs, stdout);
        else
            rc = 1;
    }
    compile_free(&cp);
    if (fflush(stdout) != 0) {
        perror("axonc: error: writing the signatures");
        return 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("axonc %s\n", AXONC_VERSION);
        return 0;
    }
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 2, argv + 2);
    return usage_error("unknown command '%s'", cmd);
}
