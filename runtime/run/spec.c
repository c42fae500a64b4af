/* ==== axon run: spec.c begin ============================================
 * spec.c - spec strings at run time (axon-spec.md section 5b: NumPy's
 * einsum notation, "bhnd,bhmd->bhnm", "...n->...1"): the labels of each
 * operand's axes for the actual ranks, the views that make every operand
 * fit the einsum kernel's contract (kernels.h: a repeated label as a
 * diagonal, an axis that "..." broadcasts stretched by a zero stride), and
 * a reduction's output as a view of its operand's rank (reduce.c).
 *
 * Included once per header, inside its implementation part, after the
 * kernels' shared files.  The translator has checked the spec and the
 * shapes (spec.c of the translator): here it is only read.
 */

/* A label's number: a letter, or axis j of "..." counted from its end. */
#define AXON__LABEL_ELL 52
#define AXON__MAX_LABELS (AXON__LABEL_ELL + AXON_MAX_RANK)

static inline int axon__label_of(char ch)
{
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a';
    if (ch >= 'A' && ch <= 'Z')
        return 26 + ch - 'A';
    return -1;
}

/* The labels of one operand of spec (text[0 .. n)), for an operand of
 * `rank` axes: "..." stands for what the letters leave.  A '1' (an output's
 * kept axis) is -1.  Returns how many axes it gave. */
AXON_RUN_FN int axon__spec_operand(const char *text, int n, int rank, int *labels)
{
    int letters = 0, ell = 0;
    for (int i = 0; i < n; i++) {
        if (text[i] == '.') {
            ell = 1;
            i += 2;
        } else if (text[i] != ' ') {
            letters++;
        }
    }
    int nell = ell ? rank - letters : 0;
    if (nell < 0)
        nell = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (text[i] == ' ')
            continue;
        if (text[i] == '.') {
            for (int j = 0; j < nell; j++)
                labels[k++] = AXON__LABEL_ELL + (nell - 1 - j);   /* from the end */
            i += 2;
        } else {
            labels[k++] = text[i] == '1' ? -1 : axon__label_of(text[i]);
        }
    }
    return k;
}

/* The spans of spec's operands and output. */
AXON_RUN_FN int axon__spec_split(const char *spec, const char **part, int *len, int max)
{
    int n = 0;
    const char *p = spec, *start = spec;
    for (;; p++) {
        if (*p == ',' || *p == '\0' || (p[0] == '-' && p[1] == '>')) {
            if (n < max) {
                part[n] = start;
                len[n] = (int)(p - start);
            }
            n++;
            if (*p == '\0')
                break;
            if (*p == '-')
                p++;
            start = p + 1;
        }
    }
    return n;
}

/* Makes x's axes with equal labels one (diagonal views), removing the
 * repeats from labels.  Returns the new rank. */
AXON_RUN_FN int axon__spec_diagonals(axon_tensor *x, int *labels, int rank)
{
    for (int a = 0; a < rank; a++)
        for (int b = a + 1; b < rank; b++)
            if (labels[b] == labels[a] && labels[a] >= 0) {
                axon__diagonal_view(x, a, b, x);
                for (int k = b; k + 1 < rank; k++)
                    labels[k] = labels[k + 1];
                rank--;
                b--;
            }
    return rank;
}

/* einsum: fills the operands' views (diagonals taken, broadcast axes
 * stretched), their labels, out's labels and every label's size; out is
 * as given.  nops is 1 or 2.  Returns the number of labels in use
 * (AXON__MAX_LABELS: label_dims is indexed by label number). */
AXON_RUN_FN void axon__einsum_setup(const char *spec, int nops, axon_tensor *ops, const axon_tensor *out,
                                    int labels[2][AXON_MAX_RANK], int *out_labels, int64_t *label_dims)
{
    const char *part[3];
    int len[3];
    axon__spec_split(spec, part, len, 3);
    for (int l = 0; l < AXON__MAX_LABELS; l++)
        label_dims[l] = 1;
    for (int i = 0; i < nops; i++) {
        int r = axon__spec_operand(part[i], len[i], ops[i].rank, labels[i]);
        r = axon__spec_diagonals(&ops[i], labels[i], r);
        for (int j = 0; j < r; j++)
            if (ops[i].dims[j] != 1 || label_dims[labels[i][j]] == 1)
                label_dims[labels[i][j]] = ops[i].dims[j];
    }
    axon__spec_operand(part[nops], len[nops], out->rank, out_labels);
    /* a broadcast axis (size 1 where the label is larger) read again and
     * again: stride 0 */
    for (int i = 0; i < nops; i++)
        for (int j = 0; j < ops[i].rank; j++)
            if (ops[i].dims[j] != label_dims[labels[i][j]]) {
                ops[i].dims[j] = label_dims[labels[i][j]];
                ops[i].strides[j] = 0;
            }
}

/* A reduction ("...n->...1", "bhnm->bhn"): x's diagonals taken, and the
 * output as a view of x's rank (out's strides on the axes it keeps, size
 * 1 and stride 0 on those reduced), as reduce.c takes it. */
AXON_RUN_FN void axon__reduce_setup(const char *spec, axon_tensor *x, const axon_tensor *out, axon_tensor *view)
{
    const char *part[2];
    int len[2];
    int xl[AXON_MAX_RANK], ol[AXON_MAX_RANK];
    axon__spec_split(spec, part, len, 2);
    int r = axon__spec_operand(part[0], len[0], x->rank, xl);
    r = axon__spec_diagonals(x, xl, r);
    int orank = axon__spec_operand(part[1], len[1], out->rank, ol);
    view->data = out->data;
    view->rank = x->rank;
    for (int j = 0; j < x->rank; j++) {
        view->dims[j] = 1;
        view->strides[j] = 0;
        for (int k = 0; k < orank; k++)
            if (ol[k] == xl[j]) {
                view->dims[j] = x->dims[j];
                view->strides[j] = out->strides[k];
            }
    }
}
/* ==== axon run: spec.c end ============================================== */
