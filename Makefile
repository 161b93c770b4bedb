# sbxlua: build, check, install.  See README.md.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
DATADIR = $(PREFIX)/share/sbxlua
LUA_CMOD = $(PREFIX)/lib/lua/5.4

PKG = lua5.4 libseccomp libcap nettle
PKG_CFLAGS := $(shell pkg-config --cflags $(PKG) libedit 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs libseccomp libcap nettle libmagic 2>/dev/null)
LUA_LIBS := $(shell pkg-config --libs lua5.4 2>/dev/null)
EDIT_LIBS := $(shell pkg-config --libs libedit 2>/dev/null)

CC ?= cc
OPT ?= -O2
CFLAGS ?= $(OPT) -g
CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wshadow \
	-Wformat=2 -Wno-unused-parameter -D_FORTIFY_SOURCE=2 \
	-fstack-protector-strong -fPIC -fvisibility=hidden $(PKG_CFLAGS)
LDFLAGS += -Wl,-z,relro,-z,now
EXE_LDFLAGS = -pie

# core/ by trust boundary: common (no Lua, no other layer), child (between
# clone and execve: common only), super (the supervisor: common only), api
# (the Lua-facing files: all).  Each layer is compiled with the include
# directories it may use, so that a lower one cannot include a higher one.
CORE_DIRS := common child super api
CORE_SRC := $(filter-out core/api/main.c,$(wildcard $(CORE_DIRS:%=core/%/*.c)))
CORE_OBJ := $(CORE_SRC:core/%.c=build/obj/%.o)
PROG_SRC := $(wildcard tests/progs/*.c)
PROG_BIN := $(PROG_SRC:tests/progs/%.c=build/tests/%)
# the behaviour corpus (tests/corpus_spec.lua)
BEHAVE_SRC := $(wildcard tests/progs/behave/*.c)
BEHAVE_BIN := $(BEHAVE_SRC:tests/progs/behave/%.c=build/tests/behave/%)
HDR := $(wildcard $(CORE_DIRS:%=core/%/*.h))
LUA_SRC := $(shell find lua -name '*.lua')

.PHONY: all check check-slurm bench-batch check-stress test test-unit lint format asan bench install uninstall deps clean

all: sbxlua build/sbx/core.so build/luac/stamp $(PROG_BIN) $(BEHAVE_BIN)

build/obj/common/%.o: LAYER_INC = -Icore/common
build/obj/child/%.o: LAYER_INC = -Icore/common -Icore/child
build/obj/super/%.o: LAYER_INC = -Icore/common -Icore/super
build/obj/api/%.o: LAYER_INC = $(CORE_DIRS:%=-Icore/%)

build/obj/%.o: core/%.c $(HDR) | build/obj
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) $(LAYER_INC) -DSBX_LUADIR='"$(DATADIR)/lua"' \
		-DSBX_LUACDIR='"$(DATADIR)/luac"' -c $< -o $@

# main.o embeds the install data directory: rebuild it when PREFIX changes
build/luadir: FORCE | build/obj
	@echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
build/obj/api/main.o: build/luadir

.PHONY: FORCE
FORCE:

sbxlua: build/obj/api/main.o $(CORE_OBJ)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) $(EXE_LDFLAGS) $(LDFLAGS) -Wl,-E -o $@ $^ $(LUA_LIBS) $(EDIT_LIBS) $(PKG_LIBS)

# the scripts and modules compiled for sbxlua's loader (core/chunk.c):
# parsing them is most of a run's start-up
build/luac/stamp: sbxlua $(LUA_SRC) scripts/luac.lua
	@echo "  LUAC    build/luac"
	@rm -rf build/luac && install -d -m 0755 build/luac
	@ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/luac.lua build/luac lua
	@touch $@

build/sbx/core.so: $(CORE_OBJ) | build/sbx
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) -shared $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

build/tests/%: tests/progs/%.c | build/tests
	@echo "  CC      $@"
	@$(CC) -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<

build/tests/behave/%: tests/progs/behave/%.c tests/progs/behave/behave.h | build/tests/behave
	@echo "  CC      $@"
	@$(CC) -O1 -g -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<

# one system call and no C library (see the program's comment)
build/tests/bare_true: tests/progs/bare_true.c | build/tests
	@echo "  CC      $@"
	@$(CC) -O1 -Wall -Wextra -Werror -static -nostdlib -no-pie \
		-fno-stack-protector -o $@ $<

# the filter's own test program includes the filter's source
build/tests/ttyfilter: core/super/ttyfilter.c core/super/ttyfilter.h

# the strict profile's corpus shares its --seccomp option
$(filter build/tests/corpus_%,$(PROG_BIN)): tests/progs/corpus.h

build/obj build/sbx build/tests build/tests/behave:
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

lint: all
	luacheck -q lua profiles rules tests scripts/*.lua docs/*.lua
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability \
		--inline-suppr --suppress=missingIncludeSystem \
		--library=scripts/cppcheck-lua.cfg -D__x86_64__ \
		$(CORE_DIRS:%=-I core/%) core tests/progs
	clang-format --dry-run -Werror core/*/*.c core/*/*.h tests/progs/*.c \
		tests/progs/behave/*.c tests/progs/behave/*.h

format:
	clang-format -i core/*/*.c core/*/*.h tests/progs/*.c tests/progs/behave/*.c \
		tests/progs/behave/*.h

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

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/lua/sbx \
		$(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/profiles/calls \
		$(DESTDIR)$(DATADIR)/rules \
		$(DESTDIR)$(LUA_CMOD)/sbx
	install -m 0755 sbxlua $(DESTDIR)$(BINDIR)/sbxlua
	# every module under lua/, at its place (sbx/backend/ too)
	cd lua && for f in $$(find . -name '*.lua' | sort); do \
		install -D -m 0644 "$$f" "$(DESTDIR)$(DATADIR)/lua/$$f" || exit 1; \
	done
	install -m 0644 profiles/*.lua $(DESTDIR)$(DATADIR)/profiles/
	install -m 0644 profiles/calls/*.lua $(DESTDIR)$(DATADIR)/profiles/calls/
	install -m 0644 rules/*.lua $(DESTDIR)$(DATADIR)/rules/
	install -m 0644 build/sbx/core.so $(DESTDIR)$(LUA_CMOD)/sbx/core.so
	# the modules compiled for where they are now installed
	rm -rf $(DESTDIR)$(DATADIR)/luac
	install -d -m 0755 $(DESTDIR)$(DATADIR)/luac
	ASAN_OPTIONS=detect_leaks=0 ./sbxlua scripts/luac.lua \
		$(DESTDIR)$(DATADIR)/luac lua $(DATADIR)/lua

uninstall:
	rm -rf $(DESTDIR)$(BINDIR)/sbxlua $(DESTDIR)$(DATADIR) $(DESTDIR)$(LUA_CMOD)/sbx

clean:
	rm -rf build sbxlua
