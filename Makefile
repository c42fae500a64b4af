# Makefile - builds axonc, runs the tests, installs.
#
#   make                 build build/axonc
#   make test            build with -Werror (and again with ASan/UBSan), run
#                        every test under both, print "N passed, N failed"
#   make demo            translate a sample, compile and run a C program using it
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
CPPFLAGS := -Itranslator -I$(GEN)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

SRCS     := $(filter-out translator/embed.c,$(wildcard translator/*.c))
GENSRCS  := $(GEN)/axon.tab.c $(GEN)/axon.lex.c $(GEN)/embedded.c
# (C symbol, file) pairs embedded into axonc by build/embed.
EMBEDS   := axon_prelude translator/prelude.axon axon_tmpl_prologue templates/prologue.h \
            axon_tmpl_function templates/function.h axon_tmpl_epilogue templates/epilogue.h \
            axon_runtime runtime/axon_runtime.h
EMBEDDED := $(filter-out axon_%,$(EMBEDS))
OBJS     := $(patsubst translator/%.c,$(BUILD)/obj/%.o,$(SRCS)) \
            $(patsubst $(GEN)/%.c,$(BUILD)/obj/%.o,$(GENSRCS))
ASANOBJS := $(patsubst $(BUILD)/obj/%,$(BUILD)/asan/%,$(OBJS))

.PHONY: all asan test demo samples install clean
# Generated headers and flag stamps are kept, not removed as intermediates.
.SECONDARY:
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

$(BUILD)/embed: translator/embed.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -o $@ $<
$(GEN)/embedded.c: $(BUILD)/embed $(EMBEDDED)
	@mkdir -p $(GEN)
	$(BUILD)/embed $@ $(EMBEDS)

test:
	$(MAKE) WERROR=1 all asan
	tests/run-all.sh

# Samples: each samples/NAME/ has NAME.axon and main.c.  The header is made
# by the pattern rule (with a depfile, so editing NAME.axon remakes it).
SAMPLES  := $(notdir $(patsubst %/,%,$(dir $(wildcard samples/*/main.c))))
SAMPLECC := $(CC) -std=c99 -Wall -Wextra -Werror -O2 -g
vpath %.axon $(addprefix samples/,$(SAMPLES))
$(BUILD)/samples/%.h: %.axon $(BUILD)/axonc
	@mkdir -p $(@D)
	$(BUILD)/axonc emit $< -o $@ -MD
$(BUILD)/samples/%: samples/%/main.c $(BUILD)/samples/%.h samples/print_tensor.h
	$(SAMPLECC) -I$(BUILD)/samples -Isamples $< -o $@
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

-include $(OBJS:.o=.d) $(ASANOBJS:.o=.d)
