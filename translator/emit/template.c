/* template.c - the templates instantiated (template.h). */
#include "template.h"

#include <stdio.h>
#include <string.h>

void instantiate_template(Buf *out, const char *tmpl, const Subst *subs, int nsubs, const char *lower,
                          const char *upper, const char *guard)
{
    const char *p = tmpl;
    while (*p) {
        if (strncmp(p, "/*!", 3) == 0) {      /* the template's own note */
            const char *close = strstr(p, "*/");
            p = close ? close + 2 : p + strlen(p);
            while (*p == '\n')
                p++;
            continue;
        }
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *hit = NULL;
        for (int i = 0; i < nsubs && !hit; i++) {
            char mark[64];
            snprintf(mark, sizeof mark, "@%s@", subs[i].marker);
            const char *m = strstr(p, mark);
            if (m && m < p + len) {
                hit = subs[i].text;
                buf_puts(out, hit);
                if (hit[0] && hit[strlen(hit) - 1] != '\n')
                    buf_putc(out, '\n');
            }
        }
        if (!hit) {
            for (size_t i = 0; i < len;) {
                if (lower && strncmp(p + i, "axon_tmpl_", 10) == 0) {
                    buf_puts(out, lower);
                    i += 10;
                } else if (upper && strncmp(p + i, "AXON_TMPL_GUARD", 15) == 0 && guard) {
                    buf_puts(out, guard);
                    i += 15;
                } else if (upper && strncmp(p + i, "AXON_TMPL_", 10) == 0) {
                    buf_puts(out, upper);
                    i += 10;
                } else {
                    buf_putc(out, p[i]);
                    i++;
                }
            }
            buf_putc(out, '\n');
        }
        p += len;
        if (*p == '\n')
            p++;
    }
}

void emit_template_into(Buf *out, const char *tmpl, const char *const *markers, const char *const *texts, int n,
                        const char *lower)
{
    Subst subs[8];
    for (int i = 0; i < n && i < 8; i++) {
        subs[i].marker = markers[i];
        subs[i].text = texts[i];
    }
    instantiate_template(out, tmpl, subs, n < 8 ? n : 8, lower, lower, NULL);
}
