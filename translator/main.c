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
#include "dot.h"
#include "emit.h"
#include "output.h"
#include "types.h"

static const char usage_text[] =
    "usage: axonc check FILE.axon\n"
    "       axonc emit FILE.axon [-o OUT] [--prefix P] [--elem-type T] [--format c|dot] [-MD] [-MF DEPFILE]\n"
    "       axonc --help | --version\n";

static const char help_text[] =
    "axonc - shape inference for Axon programs, and C/CUDA shape-checking headers\n"
    "\n"
    "Commands:\n"
    "  axonc check FILE.axon\n"
    "      Infer every top-level binding and print one line `name : signature`\n"
    "      for each, in source order.\n"
    "      example: axonc check samples/attention/attention.axon\n"
    "\n"
    "  axonc emit FILE.axon [options]\n"
    "      Write a self-contained C/CUDA header with a shape function for every\n"
    "      top-level function (to stdout without -o).\n"
    "      example: axonc emit model.axon -o model.h -MD\n"
    "    -o OUT            write to OUT, atomically (on an error OUT is left as it was)\n"
    "    --prefix P        name the functions P_NAME_shape, ... (default: the file's\n"
    "                      stem as a C identifier)\n"
    "                      example: axonc emit nets/mlp.axon --prefix mlp -o mlp.h\n"
    "    --elem-type T     element type of element variables, for byte counts:\n"
    "                      bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64\n"
    "                      (default f32), or none to refuse functions that have one\n"
    "                      example: axonc emit attention.axon --elem-type f16 -o attention.h\n"
    "    --format c|dot    c: the header (default); dot: each function's dataflow\n"
    "                      graph, with the inferred shape on every edge, for Graphviz\n"
    "                      example: axonc emit cnn.axon --format dot | dot -Tsvg -o cnn.svg\n"
    "    -MD               also write a make depfile (OUT with .d for its extension)\n"
    "    -MF DEPFILE       write the depfile to DEPFILE (implies -MD)\n"
    "                      example: axonc emit model.axon -o model.h -MD -MF deps/model.d\n"
    "\n"
    "  axonc --help       this text\n"
    "  axonc --version    the version\n"
    "\n"
    "Exit status: 0 success, 1 an error in the input (diagnostics on stderr),\n"
    "2 a usage error.  Documentation: docs/language.md, docs/c-api.md, axonc(1).\n";

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

/* The depfile's name for -MD without -MF: OUT.h gives OUT.d (as gcc). */
static const char *default_depfile(Arena *a, const char *out)
{
    size_t n = strlen(out);
    const char *dot = strrchr(out, '.');
    const char *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash))
        n = (size_t)(dot - out);
    return ar_printf(a, "%s.d", ar_strndup(a, out, n));
}

/* A make rule: `OUT: SOURCE`, with spaces escaped as make wants. */
static void dep_name(Buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == ' ' || *s == '#')
            buf_putc(b, '\\');
        if (*s == '$')
            buf_putc(b, '$');
        buf_putc(b, *s);
    }
}

static int cmd_emit(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *depfile = NULL;
    int md = 0, dot = 0;
    EmitOptions opt = { NULL, EL_F32 };
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        /* The options with a value: `-o OUT`, and `--prefix=P` as well as
         * `--prefix P` for the long ones. */
        static const char *const valued[] = { "-o", "-MF", "--prefix", "--elem-type", "--format" };
        for (size_t k = 0; k < sizeof valued / sizeof valued[0] && !val; k++) {
            size_t len = strlen(valued[k]);
            if (strcmp(a, valued[k]) == 0) {
                if (i + 1 >= argc)
                    return usage_error("option '%s' needs a value", a);
                val = argv[++i];
            } else if (valued[k][1] == '-' && strncmp(a, valued[k], len) == 0 && a[len] == '=') {
                val = a + len + 1;
                a = valued[k];
            }
        }
        if (strcmp(a, "-o") == 0)
            out = val;
        else if (strcmp(a, "--prefix") == 0)
            opt.prefix = val;
        else if (strcmp(a, "-MF") == 0)
            depfile = val, md = 1;
        else if (strcmp(a, "--format") == 0) {
            if (strcmp(val, "dot") == 0)
                dot = 1;
            else if (strcmp(val, "c") != 0)
                return usage_error("unknown format '%s' (c or dot)", val);
        }
        else if (strcmp(a, "--elem-type") == 0) {
            if (strcmp(val, "none") == 0)
                opt.elem_default = EL_VAR;
            else if ((opt.elem_default = elem_lookup(val)) == EL_VAR)
                return usage_error("unknown element type '%s' (bool, i8 .. i64, u8 .. u64, f16, bf16, f32, f64, none)", val);
        } else if (strcmp(a, "-MD") == 0)
            md = 1;
        else if (a[0] == '-' && a[1] != 0)
            return usage_error("unknown option '%s' for emit", a);
        else if (file)
            return usage_error("emit takes one file (got '%s' too)", a);
        else
            file = a;
    }
    if (!file)
        return usage_error("%s", "emit needs a file");
    if (md && !out)
        return usage_error("%s", "-MD and -MF need -o (the depfile names the output)");
    Compilation cp;
    int rc = compile_file_for_emit(&cp, file, stderr);
    if (rc == 0) {
        Buf header;
        buf_init(&header, &cp.arena);
        if (dot)
            dot_program(&cp, &header);
        if (!dot && emit_header(&cp, &opt, &header) != 0) {
            rc = 1;
        } else if (out) {
            rc = write_file_atomic(out, buf_str(&header), header.n) ? 1 : 0;
        } else {
            fwrite(buf_str(&header), 1, header.n, stdout);
            if (fflush(stdout) != 0) {
                perror("axonc: error: writing the header");
                rc = 1;
            }
        }
        if (rc == 0 && md) {
            Buf dep;
            buf_init(&dep, &cp.arena);
            dep_name(&dep, out);
            buf_puts(&dep, ": ");
            dep_name(&dep, file);
            buf_puts(&dep, "\n");
            dep_name(&dep, file);
            buf_puts(&dep, ":\n");
            rc = write_file_atomic(depfile ? depfile : default_depfile(&cp.arena, out), buf_str(&dep), dep.n) ? 1 : 0;
        }
    }
    compile_free(&cp);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("%s", "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2)
            return usage_error("%s takes no arguments", cmd);
        fputs(help_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        if (argc > 2)
            return usage_error("%s takes no arguments", cmd);
        printf("axonc %s\n", AXONC_VERSION);
        return 0;
    }
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 2, argv + 2);
    if (strcmp(cmd, "emit") == 0)
        return cmd_emit(argc - 2, argv + 2);
    if (cmd[0] == '-')
        return usage_error("unknown option '%s'", cmd);
    return usage_error("unknown command '%s'", cmd);
}
