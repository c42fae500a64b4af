# Makefile - builds axonc, runs the tests, installs.
#
#   make                 build build/axonc
#   make test            build with -Werror (and again with ASan/UBSan), run
#                        every test under both, print "N passed, N failed"
#   make demo            translate a sample, compile and run a C program using it
#   make fuzz            build the libFuzzer target with clang and fuzz for
#                        FUZZ_SECONDS (default 60); findings in build/fuzz/
#                        (tests/fuzz/README.md)
#   make install PREFIX=/usr/local DESTDIR=
#
# The scanner and parser are generated into build/gen (never committed).

CC       ?= cc
CFLAGS   ?= -O2 -g
PREFIX   ?= /usr/local
DESTDIR  ?=
BISON    ?= bison
FLEX     ?= flex

BUILD    := build
GEN      := $(BUILD)/gen
WARN     := -std=c99 -Wall -Wextra $(if $(WERROR),-Werror)
# The translator, grouped by stage (translator/README.md).
STAGES   := base front infer lower plan emit driver
CPPFLAGS := $(addprefix -Itranslator/,$(STAGES)) -I$(GEN)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

SRCS     := $(filter-out translator/base/embed.c,$(wildcard $(STAGES:%=translator/%/*.c)))
GENSRCS  := $(GEN)/axon.tab.c $(GEN)/axon.lex.c $(GEN)/embedded.c
# (C symbol, file) pairs embedded into axonc by build/embed.
EMBEDS   := axon_prelude translator/infer/prelude.axon axon_tmpl_prologue templates/prologue.h \
            axon_tmpl_function templates/function.h axon_tmpl_epilogue templates/epilogue.h \
            axon_runtime runtime/axon_runtime.h axon_tmpl_run_solve templates/run_solve.h \
            axon_kernels_h runtime/kernels/kernels.h axon_k_types runtime/kernels/types.h \
            axon_k_tensor runtime/kernels/tensor.c axon_k_convert runtime/kernels/convert.c \
            axon_k_workspace runtime/kernels/workspace.c axon_k_elementwise runtime/kernels/elementwise.c \
            axon_k_matmul runtime/kernels/matmul.c axon_k_einsum runtime/kernels/einsum.c \
            axon_k_reduce runtime/kernels/reduce.c axon_k_conv runtime/kernels/conv.c \
            axon_k_pool runtime/kernels/pool.c axon_k_norm runtime/kernels/norm.c \
            axon_k_index runtime/kernels/index.c axon_run_spec runtime/run/spec.c \
            axon_run_fused runtime/run/fused.c axon_fast_h runtime/fast/fast.h \
            axon_f_gemm runtime/fast/gemm.c axon_f_matmul runtime/fast/matmul.c \
            axon_f_vec runtime/fast/vec.c axon_f_conv runtime/fast/conv.c \
            axon_f_pool runtime/fast/pool.c axon_f_norm runtime/fast/norm.c \
            axon_f_reduce runtime/fast/reduce.c
EMBEDDED := $(filter-out axon_%,$(EMBEDS))
OBJS     := $(patsubst translator/%.c,$(BUILD)/obj/%.o,$(SRCS)) \
            $(patsubst $(GEN)/%.c,$(BUILD)/obj/%.o,$(GENSRCS))
ASANOBJS := $(patsubst $(BUILD)/obj/%,$(BUILD)/asan/%,$(OBJS))

.PHONY: all asan test demo samples install clean fuzz fuzz-build fuzz-force
# Generated files and flag stamps are kept, not removed as intermediates
# (named: a bare .SECONDARY: would make FORCE secondary too, and the flag
# stamps would then never be remade when the flags change).
.SECONDARY: $(GENSRCS) $(GEN)/axon.tab.h $(GEN)/axon.lex.h $(BUILD)/flags.obj $(BUILD)/flags.asan
all: $(BUILD)/axonc

$(BUILD)/axonc: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS)

asan: $(BUILD)/asan/axonc
$(BUILD)/asan/axonc: $(ASANOBJS)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) -o $@ $(ASANOBJS)

# Recompile when the flags change (e.g. WERROR=1 for the test build).
$(BUILD)/flags.%: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CFLAGS) $(WARN) $(if $(filter asan,$*),$(SAN))' > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
FORCE:

# The generated headers are order-only: they must exist before the first
# compile, and after that -MMD records which objects include them.
GENHDRS  := $(GEN)/axon.tab.h $(GEN)/axon.lex.h
$(BUILD)/obj/%.o: translator/%.c $(BUILD)/flags.obj | $(GENHDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c $< -o $@
$(BUILD)/obj/%.o: $(GEN)/%.c $(BUILD)/flags.obj | $(GENHDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: translator/%.c $(BUILD)/flags.asan | $(GENHDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) -MMD -MP -c $< -o $@
$(BUILD)/asan/%.o: $(GEN)/%.c $(BUILD)/flags.asan | $(GENHDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(WARN) $(SAN) -MMD -MP -c $< -o $@

# Pattern rules: each makes both of its targets in one run.
$(GEN)/%.tab.c $(GEN)/%.tab.h: grammar/%.y
	@mkdir -p $(GEN)
	$(BISON) -Wall -Werror -d -o $(GEN)/$*.tab.c $<
$(GEN)/%.lex.c $(GEN)/%.lex.h: grammar/%.l $(GEN)/%.tab.h
	@mkdir -p $(GEN)
	$(FLEX) --header-file=$(GEN)/$*.lex.h -o $(GEN)/$*.lex.c $<

$(BUILD)/embed: translator/base/embed.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<
$(GEN)/embedded.c: $(BUILD)/embed $(EMBEDDED)
	@mkdir -p $(GEN)
	$(BUILD)/embed $@ $(EMBEDS)

# The fuzz target is built too where clang has libFuzzer; without it the
# tests under tests/fuzz/ report themselves unsupported.
test:
	$(MAKE) WERROR=1 all asan
	@if $(FUZZ_PROBE); then $(MAKE) WERROR=1 fuzz-build; else \
	    rm -f $(FUZZBIN); echo "make: $(FUZZCC) cannot link -fsanitize=fuzzer: tests/fuzz/ is skipped"; fi
	tests/run-all.sh

# The libFuzzer target (tests/fuzz/): the translator built again with clang,
# libFuzzer, ASan and UBSan, without main.c, and tests/fuzz/fuzz_axonc.c.
# The seed corpus is made from every .axon file of the tests (but those of
# tests/fuzz/, which crash or hang on purpose) and of the samples.
FUZZCC      ?= clang
FUZZCFLAGS  ?= -O1 -g
FUZZ_SECONDS ?= 60
FUZZ_ARGS   ?=
FUZZSAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZDIR     := $(BUILD)/fuzz
FUZZBIN     := $(FUZZDIR)/fuzz_axonc
FUZZOBJS    := $(patsubst $(BUILD)/obj/%,$(FUZZDIR)/obj/%,$(filter-out $(BUILD)/obj/driver/main.o,$(OBJS))) \
               $(FUZZDIR)/obj/fuzz_axonc.o
FUZZSEEDS   := $(filter-out tests/fuzz/%,$(wildcard tests/*/*.axon tests/*/*/*.axon tests/*/*/*/*.axon)) \
               $(wildcard samples/*/*.axon tests/fuzz/seeds/*.axon)
# The limits (hang, memory, input length) are those of tests/fuzz/options,
# which the tests use too.
FUZZOPTS     = $(shell grep -v '^\#' tests/fuzz/options) -dict=tests/fuzz/axon.dict -print_final_stats=1
FUZZ_PROBE  := mkdir -p $(FUZZDIR) && echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return n && d[0]; }' \
               | $(FUZZCC) -fsanitize=fuzzer $(FUZZSAN) -x c - -o $(FUZZDIR)/probe 2>/dev/null

# The seeds are copied afresh every time (a flat directory, named after
# their paths): a few dozen small files.
fuzz-build: $(FUZZBIN)
	@rm -rf $(FUZZDIR)/seeds && mkdir -p $(FUZZDIR)/seeds
	@for f in $(FUZZSEEDS); do cp "$$f" "$(FUZZDIR)/seeds/$$(echo "$$f" | tr / _)"; done
$(FUZZBIN): $(FUZZOBJS)
	$(FUZZCC) $(FUZZCFLAGS) -fsanitize=fuzzer $(FUZZSAN) $(LDFLAGS) -o $@ $(FUZZOBJS)
# Recompile when the flags change.  (A phony prerequisite: with .SECONDARY
# and no prerequisites above, every target is intermediate, FORCE too, and
# a missing intermediate is not remade, so FORCE would not force.)
$(FUZZDIR)/flags: fuzz-force
	@mkdir -p $(FUZZDIR)
	@echo '$(FUZZCC) $(FUZZCFLAGS) $(WARN) $(FUZZSAN)' > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
$(FUZZDIR)/obj/%.o: translator/%.c $(FUZZDIR)/flags | $(GENHDRS)
	@mkdir -p $(@D)
	$(FUZZCC) $(CPPFLAGS) $(FUZZCFLAGS) $(WARN) -fsanitize=fuzzer-no-link $(FUZZSAN) -MMD -MP -c $< -o $@
$(FUZZDIR)/obj/%.o: $(GEN)/%.c $(FUZZDIR)/flags | $(GENHDRS)
	@mkdir -p $(@D)
	$(FUZZCC) $(CPPFLAGS) $(FUZZCFLAGS) $(WARN) -fsanitize=fuzzer-no-link $(FUZZSAN) -MMD -MP -c $< -o $@
$(FUZZDIR)/obj/%.o: tests/fuzz/%.c $(FUZZDIR)/flags | $(GENHDRS)
	@mkdir -p $(@D)
	$(FUZZCC) $(CPPFLAGS) $(FUZZCFLAGS) $(WARN) -fsanitize=fuzzer-no-link $(FUZZSAN) -MMD -MP -c $< -o $@

# New inputs go to build/fuzz/corpus (kept between runs), crashes, hangs
# and leaks to build/fuzz/findings/.
fuzz: fuzz-build
	@mkdir -p $(FUZZDIR)/corpus $(FUZZDIR)/findings
	$(FUZZBIN) $(FUZZOPTS) -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(FUZZDIR)/findings/ \
	    $(FUZZ_ARGS) $(FUZZDIR)/corpus $(FUZZDIR)/seeds

# Samples: each samples/NAME/ has NAME.axon and main.c.  The header is made
# by the pattern rule (with a depfile, so editing NAME.axon or a file it
# imports remakes it); samples/blocks/ holds the blocks samples import.
SAMPLES  := $(notdir $(patsubst %/,%,$(dir $(wildcard samples/*/main.c))))
.SECONDARY: $(SAMPLES:%=$(BUILD)/samples/%.h)
SAMPLECC := $(CC) -std=c99 -Wall -Wextra -Werror -O2 -g
vpath %.axon $(addprefix samples/,$(SAMPLES))
$(BUILD)/samples/%.h: %.axon $(BUILD)/axonc
	@mkdir -p $(@D)
	$(BUILD)/axonc emit $< -I samples/blocks -o $@ -MD $(AXONCFLAGS)
$(BUILD)/samples/%: samples/%/main.c $(BUILD)/samples/%.h samples/print_tensor.h
	$(SAMPLECC) -I$(BUILD)/samples -Isamples $< -o $@ -lm
samples: $(addprefix $(BUILD)/samples/,$(SAMPLES))
-include $(wildcard $(BUILD)/samples/*.d)

# The main job end to end: build axonc, translate a sample, compile and run
# a C program that uses the header.
demo: $(BUILD)/samples/attention
	$(BUILD)/samples/attention

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/axonc/cmake $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BUILD)/axonc $(DESTDIR)$(PREFIX)/bin/axonc
	install -m 644 cmake/AxonC.cmake $(DESTDIR)$(PREFIX)/share/axonc/cmake/AxonC.cmake
	install -m 644 docs/axonc.1 $(DESTDIR)$(PREFIX)/share/man/man1/axonc.1

clean:
	rm -rf $(BUILD)

-include $(OBJS:.o=.d) $(ASANOBJS:.o=.d) $(FUZZOBJS:.o=.d)
