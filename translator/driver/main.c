/* main.c - the axonc command line (axon-spec.md section 6).
 *
 *   axonc check FILE.axon [-I DIR]... [--letters]
 *   axonc emit FILE.axon [-I DIR]... [-o OUT.h] [--prefix P] [-MD] [-MF DEPFILE]
 *   axonc --help | --version
 * Exit status: 0 success, 1 an error in the input (or in writing the
 * output: output.h), 2 a usage error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "depfile.h"
#include "dot.h"
#include "output.h"
#include "pipeline.h"
#include "source.h"
#include "types.h"

#define MIB_TEXT(n) MIB_DIGITS(n)     /* SRC_MAX_MIB as text */
#define MIB_DIGITS(n) #n

static const char usage_text[] =
    "usage: axonc check FILE.axon [-I DIR]... [--letters] [-Werror | -w]\n"
    "       axonc emit FILE.axon [-I DIR]... [-o OUT] [--prefix P] [--elem-type T] [--format c|dot|plan] [--no-run] [-MD] [-MF DEPFILE] [-Werror | -w]\n"
    "       axonc --help | --version\n";

static const char help_text[] =
    "axonc - shape inference for Axon programs, and C/CUDA shape-checking headers\n"
    "\n"
    "Commands:\n"
    "  axonc check FILE.axon\n"
    "      Infer every top-level binding and print one line `name : signature`\n"
    "      for each, in source order, its sizes in the names of its annotations.\n"
    "      example: axonc check samples/attention/attention.axon\n"
    "    --letters         every variable a letter, in order of first appearance\n"
    "                      (the paper's form)\n"
    "    -Werror           make every warning an error (exit status 1; emit writes\n"
    "                      nothing): for CI and build rules\n"
    "    -w                show no warning (it wins over -Werror, as gcc's)\n"
    "\n"
    "  axonc emit FILE.axon [options]\n"
    "      Write a self-contained C/CUDA header with a shape function for every\n"
    "      top-level function (to stdout without -o).\n"
    "      example: axonc emit model.axon -o model.h -MD\n"
    "    -o OUT            write to OUT, atomically (on an error OUT is left as it was)\n"
    "                      (a symbolic link is followed; a device or a FIFO is written\n"
    "                      in place)\n"
    "    --prefix P        name the functions P_NAME_shape, ... (default: the file's\n"
    "                      stem as a C identifier)\n"
    "                      example: axonc emit nets/mlp.axon --prefix mlp -o mlp.h\n"
    "    --elem-type T     element type of element variables, for byte counts:\n"
    "                      bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64\n"
    "                      (default f32), or none to refuse functions that have one\n"
    "                      example: axonc emit attention.axon --elem-type f16 -o attention.h\n"
    "    --format F        c: the header (default); dot: each function's dataflow\n"
    "                      graph, with the inferred shape on every edge, for Graphviz;\n"
    "                      plan: each function's run-time checks and solutions, a step\n"
    "                      a line, as the header performs them\n"
    "                      example: axonc emit cnn.axon --format dot | dot -Tsvg -o cnn.svg\n"
    "    --no-run          shape functions only: no run() (a smaller header)\n"
    "    -MD               also write a make depfile (OUT with .d for its extension)\n"
    "    -MF DEPFILE       write the depfile to DEPFILE (implies -MD)\n"
    "                      (OUT and the depfile are both replaced, or on an error neither)\n"
    "                      example: axonc emit model.axon -o model.h -MD -MF deps/model.d\n"
    "    -Werror, -w       as for check\n"
    "\n"
    "  axonc --help       this text\n"
    "  axonc --version    the version\n"
    "\n"
    "Exit status: 0 success, 1 an error in the input or in writing the output\n"
    "(diagnostics on stderr), 2 a usage error.  An input may have up to " MIB_TEXT(SRC_MAX_MIB) " MiB.\n"
    "Documentation: docs/language.md, docs/c-api.md, axonc(1).\n";

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "axonc: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

/* `-I DIR` or `-IDIR` at argv[*i]: adds DIR to include (which has room
 * for argc directories).  Returns 1 if taken, 0 if argv[*i] is another
 * argument, -1 after a usage error. */
static int include_option(int argc, char **argv, int *i, PtrVec *include)
{
    const char *arg = argv[*i];
    if (strncmp(arg, "-I", 2) != 0)
        return 0;
    const char *dir = arg + 2;
    if (!*dir) {
        if (*i + 1 >= argc) {
            usage_error("option '%s' needs a value", arg);
            return -1;
        }
        dir = argv[++*i];
    }
    include->items[include->n++] = (void *)dir;
    return 1;
}

static int cmd_check(int argc, char **argv, PtrVec *include)
{
    const char *file = NULL;
    int werror = 0, nowarn = 0, letters = 0;
    for (int i = 0; i < argc; i++) {
        int inc = include_option(argc, argv, &i, include);
        if (inc < 0)
            return 2;
        if (inc)
            continue;
        if (strcmp(argv[i], "-Werror") == 0 || strcmp(argv[i], "-w") == 0) {
            *(argv[i][1] == 'w' ? &nowarn : &werror) = 1;
            continue;
        }
        if (strcmp(argv[i], "--letters") == 0) {
            letters = 1;
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != 0)
            return usage_error("unknown option '%s' for check", argv[i]);
        if (file)
            return usage_error("check takes one file (got '%s' too)", argv[i]);
        file = argv[i];
    }
    if (!file)
        return usage_error("%s", "check needs a file");
    Compilation cp;
    int rc = compile_file(&cp, file, stderr, nowarn ? COMPILE_NOWARN : werror ? COMPILE_WERROR : COMPILE_WARN,
                          include);
    if (rc == 0) {
        cp.ctx.letters = letters;
        const char *sigs = compile_signatures(&cp);
        rc = !sigs || write_stdout(sigs, strlen(sigs), "the signatures", file) != 0;
    }
    compile_free(&cp);
    return rc;
}

/* Writes what emit made to OUT (or stdout without -o) and the depfile
 * (unless NULL): every file or none.  Returns the exit status. */
static int write_emitted(Compilation *cp, Buf *text, const char *what, const char *file, const char *out,
                         const char *depfile)
{
    if (!out)
        return write_stdout(buf_str(text), text->n, what, file) != 0;
    OutFile files[2] = { { "output", out, buf_str(text), text->n } };
    int n = 1;
    Buf dep;
    buf_init(&dep, &cp->arena);
    if (depfile) {
        if (make_rule(&dep, out, file, &cp->imported))
            return 1;
        OutFile d = { "depfile", depfile, buf_str(&dep), dep.n };
        files[n++] = d;
    }
    return write_outputs(files, n, file) != 0;
}

static int cmd_emit(int argc, char **argv, PtrVec *include)
{
    const char *file = NULL, *out = NULL, *depfile = NULL;
    int md = 0, dot = 0, plans = 0, werror = 0, nowarn = 0;
    EmitOptions opt = { NULL, EL_F32, 0 };
    for (int i = 0; i < argc; i++) {
        int inc = include_option(argc, argv, &i, include);
        if (inc < 0)
            return 2;
        if (inc)
            continue;
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
            else if (strcmp(val, "plan") == 0)
                plans = 1;
            else if (strcmp(val, "c") != 0)
                return usage_error("unknown format '%s' (c, dot or plan)", val);
        }
        else if (strcmp(a, "--elem-type") == 0) {
            if (strcmp(val, "none") == 0)
                opt.elem_default = EL_VAR;
            else if ((opt.elem_default = elem_lookup(val)) == EL_VAR || opt.elem_default == EL_DIMS)
                return usage_error("unknown element type '%s' (bool, i8 .. i64, u8 .. u64, f16, bf16, f32, f64, none)", val);
        } else if (strcmp(a, "-MD") == 0)
            md = 1;
        else if (strcmp(a, "--no-run") == 0)
            opt.no_run = 1;
        else if (strcmp(a, "-Werror") == 0)
            werror = 1;
        else if (strcmp(a, "-w") == 0)
            nowarn = 1;
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
    int rc = compile_file_for_emit(&cp, file, stderr,
                                   nowarn ? COMPILE_NOWARN : werror ? COMPILE_WERROR : COMPILE_WARN, include);
    if (rc == 0) {
        Buf text;
        buf_init(&text, &cp.arena);
        if (dot)
            dot_program(&cp, &text);
        if (!dot && (plans ? pipeline_plans(&cp, &opt, &text) : pipeline_header(&cp, &opt, &text)) != 0)
            rc = 1;
        else if (cp.diag.errors)        /* -Werror: a warning of the emitter */
            rc = 1;
        else
            rc = write_emitted(&cp, &text, dot ? "the graph" : plans ? "the plans" : "the header", file, out,
                               md ? (depfile ? depfile : default_depfile(&cp.arena, out)) : NULL);
    }
    compile_free(&cp);
    return rc;
}

/* Makes sure descriptors 0, 1 and 2 are open (on /dev/null, read-only),
 * so that no file axonc opens takes their place: a write to a closed
 * stdout then fails as it should instead of landing in an output file. */
static void reserve_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", O_RDONLY) < 0)
            return;
}

int main(int argc, char **argv)
{
    reserve_standard_fds();
    /* Diagnostics are buffered (an unbuffered stderr makes a write per
     * piece: 100,000 warnings took seconds); exit and write_stdout flush
     * it, so the order with stdout stays. */
    static char errbuf[1 << 16];
    setvbuf(stderr, errbuf, _IOFBF, sizeof errbuf);
    if (argc < 2)
        return usage_error("%s", "no command given");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        if (argc > 2)
            return usage_error("%s takes no arguments", cmd);
        return write_stdout(help_text, strlen(help_text), "the help", NULL) != 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        if (argc > 2)
            return usage_error("%s takes no arguments", cmd);
        static const char version[] = "axonc " AXONC_VERSION "\n";
        return write_stdout(version, strlen(version), "the version", NULL) != 0;
    }
    if (strcmp(cmd, "check") == 0 || strcmp(cmd, "emit") == 0) {
        /* room for every argument as an -I directory */
        PtrVec include = { malloc((size_t)argc * sizeof(void *)), 0, argc };
        if (!include.items) {
            fprintf(stderr, "axonc: out of memory\n");
            return 1;
        }
        int rc = (cmd[0] == 'c' ? cmd_check : cmd_emit)(argc - 2, argv + 2, &include);
        free(include.items);
        return rc;
    }
    if (cmd[0] == '-')
        return usage_error("unknown option '%s'", cmd);
    return usage_error("unknown command '%s'", cmd);
}
