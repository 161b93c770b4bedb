# SPDX-License-Identifier: MIT
# sbxlua: build, check, install.  See README.md.
VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
# the scripts (lua/*.lua), the profiles and the rules
DATADIR = $(PREFIX)/share/sbxlua
# the modules (sbx/...) and the C module (sbx/core.so), where a stock
# lua5.4 finds them; the compiled chunks (architecture specific) under lib
LUA_LMOD = $(PREFIX)/share/lua/5.4
LIBDIR = $(PREFIX)/lib
LUA_CMOD = $(LIBDIR)/lua/5.4
LUACDIR = $(LIBDIR)/sbxlua/luac
MANDIR = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(PREFIX)/share/zsh/vendor-completions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d

PKG = lua5.4 libseccomp libcap nettle
PKG_CFLAGS := $(shell pkg-config --cflags $(PKG) libedit 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs libseccomp libcap nettle 2>/dev/null)
LUA_LIBS := $(shell pkg-config --libs lua5.4 2>/dev/null)
# libedit is opened by the REPL alone (core/api/main.c), by this path: never linked
EDIT_SO := $(shell pkg-config --variable=libdir libedit 2>/dev/null)/libedit.so.2
# libmagic is opened by the inspection worker (core/super/inspect_worker.c), by this path
MAGIC_SO := $(shell pkg-config --variable=libdir libmagic 2>/dev/null)/libmagic.so.1
# libyara likewise (core/super/inspect_yara.c): opened by the inspection
# worker and the rules' compiler, never by sbxlua; its headers alone here
YARA_SO := $(shell pkg-config --variable=libdir yara 2>/dev/null)/libyara.so.9
# sbxlua links Lua (whole: C modules call any of its API), libseccomp, libcap
# and nettle from their .a, none of the last three exported; STATIC=0 links
# the shared ones (docs/performance.md, "Static linking")
STATIC ?= 1
# libfuzzy (ssdeep) and libtlsh (TLSH, C++: core/common/tlsh.cc, so the C++
# runtime) compute the hashes of core/common/hashes.c.  sbxlua takes the
# C++ runtime from its .a too (and libgcc's unwinder): loading and
# relocating libstdc++.so cost every start about 2 ms of CPU
# (docs/performance.md, "The C++ runtime")
HASH_LIBS = -lfuzzy -ltlsh
EXE_LIBS_1 = -static-libgcc \
	-Wl,--exclude-libs,libseccomp.a:libcap.a:libnettle.a:libfuzzy.a:libtlsh.a:libstdc++.a -Wl,-Bstatic \
	-Wl,--whole-archive -llua5.4 -Wl,--no-whole-archive -lseccomp -lcap -lnettle $(HASH_LIBS) -lstdc++ \
	-Wl,-Bdynamic -lm
EXE_LIBS_0 = $(LUA_LIBS) $(PKG_LIBS) $(HASH_LIBS) -lstdc++

# CPPFLAGS, CFLAGS and LDFLAGS are the packager's (dpkg-buildflags'):
# they come after sbxlua's own, which they never replace.  -Werror only
# in `make dev` and the test command (scripts/check.sh): WERROR=-Werror.
CC ?= cc
OPT ?= -O2
CFLAGS ?= $(OPT) -g
WERROR ?=
SBX_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -Wshadow \
	-Wformat=2 -Wno-unused-parameter -D_FORTIFY_SOURCE=2 \
	-fstack-protector-strong -fPIC -fvisibility=hidden $(PKG_CFLAGS) \
	-DSBX_VERSION='"$(VERSION)"'
ALL_CFLAGS = $(CPPFLAGS) $(SBX_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = -Wl,-z,relro,-z,now $(LDFLAGS)
EXE_LDFLAGS = -pie
PROG_CFLAGS = -O1 -g -Wall -Wextra $(WERROR) -D_GNU_SOURCE

# core/ by trust boundary: common (no Lua, no other layer), child (between
# clone and execve: common only), super (the supervisor: common only), api
# (the Lua-facing files: all).  Each layer is compiled with the include
# directories it may use, so that a lower one cannot include a higher one.
CORE_DIRS := common child super api
CORE_SRC := $(filter-out core/api/main.c,$(wildcard $(CORE_DIRS:%=core/%/*.c)))
CORE_OBJ := $(CORE_SRC:core/%.c=build/obj/%.o) build/obj/common/tlsh.o
PROG_SRC := $(wildcard tests/progs/*.c)
PROG_BIN := $(PROG_SRC:tests/progs/%.c=build/tests/%)
ifneq ($(shell pkg-config --exists libpcre2-8 && echo y),y)
PROG_BIN := $(filter-out build/tests/pcre2match,$(PROG_BIN))
endif
# the behaviour corpus (tests/corpus_spec.lua)
BEHAVE_SRC := $(wildcard tests/progs/behave/*.c)
BEHAVE_BIN := $(BEHAVE_SRC:tests/progs/behave/%.c=build/tests/behave/%)
# the ATT&CK corpus's C programs (tests/techniques_spec.lua), each named
# as its source without .c; box_only.h holds their shared check
TECH_SRC := $(wildcard tests/techniques/*.c)
TECH_HDR := tests/techniques/box_only.h
TECH_BIN := $(TECH_SRC:tests/techniques/%.c=build/techniques/%)
HDR := $(wildcard $(CORE_DIRS:%=core/%/*.h))
LUA_SRC := $(shell find lua -name '*.lua')

.PHONY: standin all dev check check-slurm bench-batch check-stress test test-unit lint format asan bench install \
	uninstall deps clean man completions

all: sbxlua build/sbx/core.so build/luac/stamp $(PROG_BIN) $(BEHAVE_BIN) $(TECH_BIN) man completions standin

# what a developer builds: every warning an error
dev:
	$(MAKE) all WERROR=-Werror

build/obj/common/%.o: LAYER_INC = -Icore/common
build/obj/child/%.o: LAYER_INC = -Icore/common -Icore/child
build/obj/super/%.o: LAYER_INC = -Icore/common -Icore/super
build/obj/api/%.o: LAYER_INC = $(CORE_DIRS:%=-Icore/%)

# the one C++ file: libtlsh's class behind a C interface (hashes.h); the
# packager's CXXFLAGS, else CFLAGS
CXX ?= c++
CXXFLAGS ?= $(CFLAGS)
build/obj/common/tlsh.o: core/common/tlsh.cc core/common/hashes.h | build/obj
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	@$(CXX) -std=c++17 -Wall -Wextra $(WERROR) -fPIC -fvisibility=hidden -D_FORTIFY_SOURCE=2 \
		-fstack-protector-strong $(CPPFLAGS) $(CXXFLAGS) -c $< -o $@

build/obj/%.o: core/%.c $(HDR) | build/obj
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) $(LAYER_INC) -DSBX_LUADIR='"$(DATADIR)/lua"' \
		-DSBX_MODDIR='"$(LUA_LMOD)"' -DSBX_LUACDIR='"$(LUACDIR)"' \
		-DSBX_PREFIX='"$(PREFIX)"' -c $< -o $@

# main.o embeds the install directories, every object the version:
# rebuild when PREFIX or VERSION changes
build/luadir: FORCE | build/obj
	@echo '$(PREFIX) $(DATADIR) $(LUA_LMOD) $(LUACDIR)' | cmp -s - $@ || \
		echo '$(PREFIX) $(DATADIR) $(LUA_LMOD) $(LUACDIR)' > $@
build/obj/api/main.o: build/luadir
build/obj/api/main.o: CFLAGS += -DSBX_LIBEDIT='"$(EDIT_SO)"'
build/obj/super/inspect_worker.o: CFLAGS += -DSBX_LIBMAGIC='"$(MAGIC_SO)"'
build/obj/super/inspect_yara.o: CFLAGS += -DSBX_LIBYARA='"$(YARA_SO)"'
$(CORE_OBJ) build/obj/api/main.o: VERSION

# every object is rebuilt when the flags change (make dev after make:
# each warning is seen as an error)
FLAGS_SEEN = $(subst ',,$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS))
build/cflags: FORCE | build/obj
	@echo '$(FLAGS_SEEN)' | cmp -s - $@ || echo '$(FLAGS_SEEN)' > $@
$(CORE_OBJ) build/obj/api/main.o: build/cflags

.PHONY: FORCE
FORCE:

sbxlua: build/obj/api/main.o $(CORE_OBJ)
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) $(EXE_LDFLAGS) $(ALL_LDFLAGS) -Wl,-E -o $@ $(filter %.o,$^) $(EXE_LIBS_$(STATIC))

# the scripts and modules compiled for sbxlua's loader (core/chunk.c):
# parsing them is most of a run's start-up
build/luac/stamp: sbxlua $(LUA_SRC) scripts/luac.lua
	@echo "  LUAC    build/luac"
	@rm -rf build/luac && install -d -m 0755 build/luac
	@ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/luac.lua build/luac lua
	@touch $@

build/sbx/core.so: $(CORE_OBJ) | build/sbx
	@echo "  LD      $@"
	@$(CC) $(ALL_CFLAGS) -shared $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(HASH_LIBS) -lstdc++

# The stand-ins for tools a host lacks (docs/standins.md): one program, run
# inside the analysis box only, that includes no layer of core/ (nor Lua);
# `names` lists the tools it plays, which sbx.standin links in the box.
STANDIN_SRC := $(wildcard core/standin/*.c)
STANDIN_CFLAGS = $(CPPFLAGS) -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) -Wshadow \
	-Wformat=2 -Wno-unused-parameter -D_FORTIFY_SOURCE=2 -fstack-protector-strong \
	-fPIE -Icore/standin $(CFLAGS)
standin: build/standin/standin build/standin/names

build/standin/standin: $(STANDIN_SRC) core/standin/standin.h build/cflags | build/standin
	@echo "  LD      $@"
	@$(CC) $(STANDIN_CFLAGS) $(EXE_LDFLAGS) $(ALL_LDFLAGS) -s -o $@ $(STANDIN_SRC)

build/standin/names: build/standin/standin
	@echo "  GEN     $@"
	@build/standin/standin --names > $@.tmp
	@mv $@.tmp $@

build/tests/%: tests/progs/%.c | build/tests
	@echo "  CC      $@"
	@$(CC) $(PROG_CFLAGS) -o $@ $<

build/tests/behave/%: tests/progs/behave/%.c tests/progs/behave/behave.h | build/tests/behave
	@echo "  CC      $@"
	@$(CC) $(PROG_CFLAGS) -o $@ $<

build/techniques/%: tests/techniques/%.c $(TECH_HDR) | build/techniques
	@echo "  CC      $@"
	@$(CC) $(PROG_CFLAGS) -o $@ $<

# one system call and no C library (see the program's comment)
build/tests/bare_true: tests/progs/bare_true.c | build/tests
	@echo "  CC      $@"
	@$(CC) -O1 -Wall -Wextra $(WERROR) -static -nostdlib -no-pie \
		-fno-stack-protector -o $@ $<

# the filter's own test program includes the filter's source
build/tests/ttyfilter: core/super/ttyfilter.c core/super/ttyfilter.h

# the pid reuse program includes the pidfd helpers' source
build/tests/pidreuse: core/super/pidfd.c core/super/pidfd.h core/common/fileio.c
build/tests/pidreuse: PROG_CFLAGS += -Icore/common -Icore/super

# PCRE2's answers for the Sigma regex engine's differential test
# (tests/sigma_spec.lua; pending without libpcre2-dev)
build/tests/pcre2match: tests/progs/pcre2match.c | build/tests
	@echo "  CC      $@"
	@$(CC) $(PROG_CFLAGS) -o $@ $< -lpcre2-8

# the strict profile's corpus shares its --seccomp option
$(filter build/tests/corpus_%,$(PROG_BIN)): tests/progs/corpus.h

# the man pages, their OPTIONS from the registry (scripts/man.lua)
MAN_PAGES = build/man/sbxlua.1 build/man/sbxlua-profile.5
man: $(MAN_PAGES)

build/man/%: docs/man/%.in scripts/man.lua $(LUA_SRC) VERSION build/luadir sbxlua | build/man
	@echo "  MAN     $@"
	@ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/man.lua $< '$(VERSION)' '$(PREFIX)' > $@.tmp
	@mv $@.tmp $@

# the completions, from the same registry
COMPLETIONS = build/completions/bash build/completions/zsh build/completions/fish
completions: $(COMPLETIONS)

build/completions/%: completions/generate.lua $(LUA_SRC) sbxlua | build/completions
	@echo "  GEN     $@"
	@ASAN_OPTIONS=detect_leaks=0 ./sbxlua completions/generate.lua $* > $@.tmp
	@mv $@.tmp $@

build/obj build/sbx build/tests build/tests/behave build/techniques build/man build/completions build/standin:
	mkdir -p $@

# The README's test command is `make check`: deps, lint, every suite,
# as root and again as an unprivileged user; ends with `N passed, N failed`.
check: deps all lint
	scripts/test.sh

test: all
	scripts/test.sh

# the batch as a Slurm job array on a one-node cluster of this machine
# (root: it starts munged, slurmctld and slurmd in a private directory)
check-slurm: all
	tests/slurm.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# batch throughput at -j 1 and -j 2 beside a shell loop over bwrap
bench-batch: all
	scripts/bench-batch.sh

# every suite twice at once beside one busy process per core (not in CI)
check-stress: all
	scripts/stress.sh

test-unit: all
	SBX_TEST_USERS=self scripts/test.sh

# the SPDX line in every source (scripts/spdx.sh adds it): SPDX_CHECK=1
SPDX_CHECK ?= 1

lint: all
	luacheck -q lua profiles rules tests scripts/*.lua docs/*.lua completions/*.lua
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--inline-suppr --suppress=missingIncludeSystem \
		--library=scripts/cppcheck-lua.cfg -D__x86_64__ -DSBX_VERSION='"$(VERSION)"' \
		$(CORE_DIRS:%=-I core/%) core tests/progs tests/techniques
	clang-format --dry-run -Werror core/*/*.c core/*/*.h tests/progs/*.c $(TECH_SRC) \
		$(TECH_HDR) tests/progs/behave/*.c tests/progs/behave/*.h
	mandoc -Tlint -Wwarning $(MAN_PAGES)
	if [ "$(SPDX_CHECK)" = 1 ]; then scripts/spdx.sh --check; fi

format:
	clang-format -i core/*/*.c core/*/*.h tests/progs/*.c $(TECH_SRC) $(TECH_HDR) \
		tests/progs/behave/*.c tests/progs/behave/*.h

asan:
	$(MAKE) clean
	$(MAKE) all OPT="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"
	# busted runs under ./sbxlua: the instrumented core is linked into it
	ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	SBX_TEST_LUA=./sbxlua SBX_TEST_ASAN=1 SBX_TEST_USERS=self scripts/test.sh

bench: all
	scripts/bench-breakdown.sh
	scripts/bench-startup.sh
	./sbxlua scripts/bench-sampler.lua
	scripts/bench-notify.sh
	./sbxlua scripts/bench-rule.lua

deps:
	scripts/deps.sh

# the program, the modules, the chunks, the man pages and the
# completions; nothing of the tests
INSTALL_BUILT = sbxlua build/sbx/core.so $(MAN_PAGES) $(COMPLETIONS) build/standin/standin \
	build/standin/names
D = $(DESTDIR)

install: $(INSTALL_BUILT)
	install -d -m 0755 $(D)$(BINDIR) $(D)$(DATADIR)/lua $(D)$(DATADIR)/profiles/calls \
		$(D)$(DATADIR)/rules $(D)$(LUA_LMOD)/sbx $(D)$(LUA_CMOD)/sbx \
		$(D)$(MANDIR)/man1 $(D)$(MANDIR)/man5 $(D)$(BASHCOMPDIR) $(D)$(ZSHCOMPDIR) $(D)$(FISHCOMPDIR)
	install -m 0755 sbxlua $(D)$(BINDIR)/sbxlua
	install -m 0644 lua/*.lua $(D)$(DATADIR)/lua/
	# every module under lua/sbx/, at its place (sbx/backend/ too)
	cd lua && for f in $$(find sbx -name '*.lua' | sort); do \
		install -D -m 0644 "$$f" "$(D)$(LUA_LMOD)/$$f" || exit 1; \
	done
	install -m 0644 profiles/*.lua $(D)$(DATADIR)/profiles/
	install -m 0644 profiles/calls/*.lua $(D)$(DATADIR)/profiles/calls/
	install -m 0644 rules/*.lua $(D)$(DATADIR)/rules/
	install -m 0644 build/sbx/core.so $(D)$(LUA_CMOD)/sbx/core.so
	install -m 0644 build/man/sbxlua.1 $(D)$(MANDIR)/man1/
	install -m 0644 build/man/sbxlua-profile.5 $(D)$(MANDIR)/man5/
	install -m 0644 build/completions/bash $(D)$(BASHCOMPDIR)/sbxlua
	install -m 0644 build/completions/zsh $(D)$(ZSHCOMPDIR)/_sbxlua
	install -m 0644 build/completions/fish $(D)$(FISHCOMPDIR)/sbxlua.fish
	# the stand-ins, beside the compiled chunks (sbx.standin finds them there)
	install -d -m 0755 $(D)$(LIBDIR)/sbxlua/standin
	install -m 0755 build/standin/standin $(D)$(LIBDIR)/sbxlua/standin/standin
	install -m 0644 build/standin/names $(D)$(LIBDIR)/sbxlua/standin/names
	# the scripts and modules compiled for where they are now installed
	rm -rf $(D)$(LUACDIR)
	install -d -m 0755 $(D)$(LUACDIR)
	ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/luac.lua $(D)$(LUACDIR) lua/sbx $(LUA_LMOD)/sbx
	ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/luac.lua $(D)$(LUACDIR) $(D)$(DATADIR)/lua $(DATADIR)/lua

uninstall:
	rm -rf $(D)$(BINDIR)/sbxlua $(D)$(DATADIR) $(D)$(LUA_LMOD)/sbx $(D)$(LUA_CMOD)/sbx \
		$(D)$(LIBDIR)/sbxlua $(D)$(MANDIR)/man1/sbxlua.1 $(D)$(MANDIR)/man5/sbxlua-profile.5 \
		$(D)$(BASHCOMPDIR)/sbxlua $(D)$(ZSHCOMPDIR)/_sbxlua $(D)$(FISHCOMPDIR)/sbxlua.fish

clean:
	rm -rf build sbxlua
