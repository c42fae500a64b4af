/* cnames.c - the C names of what a header defines (cnames.h). */
#include "cnames.h"

#include <string.h>

static int is_alnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* The words that follow a function's name in the names of its tensors and
 * counts (P_NAME_IN_x, P_NAME_NUM_INPUTS): a function name with one of
 * them as a later segment would read as another function's. */
static const char *const after_function[] = { "IN", "OUT", "TMP", "NUM", "EXTERN" };
/* The words that follow a tensor's name (P_NAME_IN_x_ELEMENTS, _MAX_BYTES). */
static const char *const after_tensor[] = { "ELEMENTS", "BYTES" };

static int in_list(const char *s, size_t n, const char *const *list, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (strlen(list[i]) == n && strncmp(s, list[i], n) == 0)
            return 1;
    return 0;
}

/* Segments of letters and digits joined by single underscores, none that
 * reads as a generated word in its place (cnames.h). */
static int plain(const char *name, CnPlace place)
{
    if (!*name || !is_alnum(name[0]) || (name[0] >= '0' && name[0] <= '9'))
        return 0;
    const char *seg = name, *prev = NULL;
    size_t prev_n = 0;
    int first = 1;
    for (const char *s = name;; s++) {
        if (*s == '_' || *s == '\0') {
            size_t n = (size_t)(s - seg);
            if (n == 0)
                return 0;           /* `__`, or a trailing `_` */
            if (!first && place == CN_FUNCTION &&
                in_list(seg, n, after_function, sizeof after_function / sizeof *after_function))
                return 0;
            if (*s == '\0') {
                if (place == CN_TENSOR && in_list(seg, n, after_tensor, sizeof after_tensor / sizeof *after_tensor))
                    return 0;
                if (place == CN_TENSOR && prev && all_digits(prev, prev_n) && all_digits(seg, n))
                    return 0;       /* reads as an unnamed intermediate's `op_12_15` */
                return 1;
            }
            prev = seg;
            prev_n = n;
            seg = s + 1;
            first = 0;
        } else if (!is_alnum(*s)) {
            return 0;               /* `'` */
        }
    }
}

const char *cn_spell(Arena *a, const char *name, CnPlace place)
{
    if (plain(name, place))
        return name;
    Buf b;
    buf_init(&b, a);
    buf_putc(&b, '_');
    for (const char *s = name; *s; s++) {
        if (*s == '_')
            buf_puts(&b, "__");
        else if (*s == '\'')
            buf_puts(&b, "_prime");
        else
            buf_putc(&b, *s);
    }
    return buf_str(&b);
}

/* Keywords of C (to C23) and C++ (to C++20), the names of the standard
 * headers' macros that a lowercase name could meet (<math.h>, <stdbool.h>,
 * <iso646.h>, <complex.h>, <stdnoreturn.h>, <errno.h>, <assert.h>,
 * <stdio.h>'s streams), the macros compilers predefine in their GNU modes
 * (`linux`, `unix`, `i386`, ...) and a few that platform headers define
 * (`near`, `far`, `interface`, `small`, `min`, `max`). */
static const char *const reserved[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "compl", "concept",
    "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend",
    "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "nullptr",
    "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast", "requires",
    "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch",
    "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
    "typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor",
    "xor_eq",
    "errno", "assert", "offsetof", "math_errhandling", "complex", "imaginary", "noreturn", "stdin", "stdout",
    "stderr", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t",
    "linux", "unix", "i386", "i486", "i586", "i686", "sun", "sparc", "mips", "vax", "pdp11", "m68k", "hppa",
    "near", "far", "interface", "small", "hyper", "min", "max",
    "dims", "rank",
};

int cn_free_identifier(const char *name)
{
    if (!name || !is_alnum(name[0]) || (name[0] >= '0' && name[0] <= '9'))
        return 0;
    int lower = 0;
    for (const char *p = name; *p; p++) {
        if (!is_alnum(*p) && *p != '_')
            return 0;
        lower |= (*p >= 'a' && *p <= 'z');
    }
    /* all capitals: the space of macros (INT64_MAX, NAN, EOF) */
    if (!lower || strncmp(name, "axon", 4) == 0 || strstr(name, "__"))
        return 0;
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return 0;
    return 1;
}

void cn_init(CnNames *n, Arena *a)
{
    st_init(&n->taken, a);
}

const char *cn_owner(CnNames *n, const char *name)
{
    return st_get(&n->taken, name);
}

const char *cn_claim(CnNames *n, const char *name, const char *what)
{
    const char *had = st_get(&n->taken, name);
    if (had)
        return had;
    st_put(&n->taken, name, (void *)what);
    return NULL;
}
