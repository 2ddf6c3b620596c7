# condraughts -- build, test and benchmark.
#   make            library + CLI (release, build/)
#   make test       everything CI checks (unit tests, perft suites, rule tests, reference comparison)
#   make asan       the same tests under AddressSanitizer + UBSan (build-asan/)
#   make perft-full the deep perft depths
#   make bench-perft perft speed figures

CC      ?= gcc
CSTD    := -std=c11
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wpointer-arith
# The instruction set: by default the building machine's (-march=native, when the compiler takes
# it: BMI2's pext/pdep and AVX2 where the CPU has them); PORTABLE=1 the target's baseline, so the
# program runs on any x86-64 (-march=x86-64) or any aarch64 (-march=armv8-a). Without BMI2/AVX2
# the code takes its plain C paths, which give the same results (the bench signature).
CC_TARGET := $(shell $(CC) -dumpmachine 2>/dev/null)
ifeq ($(PORTABLE),1)
ARCH    := $(if $(filter x86_64-%,$(CC_TARGET)),-march=x86-64,$(if $(filter aarch64-%,$(CC_TARGET)),-march=armv8-a))
else
ARCH    := $(shell echo 'int x;' | $(CC) -march=native -x c -c -o /dev/null - 2>/dev/null && echo -march=native)
endif
OPT     ?= -O3 $(ARCH)
CFLAGS  ?= $(OPT) -g
CPPFLAGS := -Iinclude -Isrc/core
BUILD   ?= build
# Windows (make windows: mingw-w64): the program is condraughts.exe, linked statically (no DLLs
# beside it), and C11 <threads.h>, which mingw-w64 lacks, comes from src/compat/win/threads.h;
# printf is mingw-w64's own, which knows C99's formats (%zu, %lld), not msvcrt's. gcc checks
# format(printf) functions against msvcrt's formats there, so the formats are checked by the
# native builds only (-Wno-format).
ifneq ($(filter %-mingw32,$(CC_TARGET)),)
EXE     := .exe
CPPFLAGS += -Isrc/compat/win -D__USE_MINGW_ANSI_STDIO=1
LDLIBS_WIN := -lws2_32
WARN    += -Wno-format
LDFLAGS += -static
endif

CORE_SRC := $(wildcard src/core/*.c)
CORE_OBJ := $(CORE_SRC:src/core/%.c=$(BUILD)/core/%.o)
LIB      := $(BUILD)/libcondraughts.a
BIN      := $(BUILD)/condraughts$(EXE)

.PHONY: play-big backup-test book-test deb deb-test install uninstall install-test selfplay tune tune-test screenshots play-test pg-test play-pg-test weights pattern-test match-test turkish-test study-test egtb-test egtb-cli-test egtb-verify endgames deps-test test-nobrowser web-test api-test play dxp-test hub-test pdn-test cli-test engine-test bench-check bench run all lib test unit perft-test rules-test reference-test reference-full asan clang \
        perft-full bench-perft clean format

all: $(BIN)
lib: $(LIB)

# Every object is built on its own (make -j) with its header dependencies (-MMD -MP: the .d files
# included at the end). The compile commands are kept in $(BUILD)/.flags, rewritten only when they
# change, so that a change of CC, OPT or CFLAGS rebuilds the objects and other edits here do not.
DEPFLAGS := -MMD -MP
$(BUILD)/core/%.o: src/core/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@

# Tower draughts (src/towers/, docs/towers.md) is a room of the library with its own header,
# src/towers/towers.h: built into $(LIB) beside the core, with the public header only (it must
# not reach into src/core).
TOWERS_SRC := $(wildcard src/towers/*.c)
TOWERS_OBJ := $(TOWERS_SRC:src/towers/%.c=$(BUILD)/towers/%.o)
$(BUILD)/towers/%.o: src/towers/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Iinclude $(DEPFLAGS) -c $< -o $@

$(LIB): $(CORE_OBJ) $(TOWERS_OBJ)
	@rm -f $@
	ar rcs $@ $^

CLI_SRC := $(wildcard src/cli/*.c)
PROTO_SRC := $(wildcard src/proto/*.c)
# NO_WEB=1: a program without `serve` (it says so) and without its libraries (libmicrohttpd,
# cJSON, SQLite, libpq, libsodium), for a machine that lacks them (the aarch64 cross build).
ifeq ($(NO_WEB),1)
WEB_SRC :=
WEB_LIBS :=
WEB_CPPFLAGS := -DCD_NO_WEB
else
WEB_SRC := $(wildcard src/web/*.c)
WEB_LIBS := -lmicrohttpd -lcjson -lsqlite3 -lpq -lsodium -licui18n -licuuc
WEB_CPPFLAGS := -I/usr/include/postgresql
endif
# NO_TRAIN=1: a program without `train` (it says so) and its library (liblzma, for the game
# corpus and the games a study keeps: `study` then says it cannot read them), for the same
# machines.
ifeq ($(NO_TRAIN),1)
TRAIN_SRC :=
TRAIN_LIBS :=
TRAIN_CPPFLAGS := -DCD_NO_TRAIN
else
TRAIN_SRC := $(wildcard src/train/*.c)
TRAIN_LIBS := -llzma
endif
# Windows leaves out study (child processes, fsync, MPI): src/compat/win/unported.c answers for
# it. DXP's sockets are Winsock's there (src/compat/win/socket.c), match's engine processes
# Windows' own (src/compat/win/proc.c).
ifneq ($(EXE),)
UNPORTED := src/cli/proc.c src/cli/cb_host.c $(wildcard src/cli/study*.c)
CLI_SRC := $(filter-out $(UNPORTED),$(CLI_SRC)) src/compat/win/unported.c src/compat/win/socket.c \
  src/compat/win/proc.c
PROTO_SRC := $(filter-out $(UNPORTED),$(PROTO_SRC))
endif
UTIL_SRC := $(wildcard src/util/*.c)
EVAL_IO_SRC := $(wildcard src/eval_io/*.c)
# The CheckerBoard API's boards and moves (src/cb/cb_board.c): `match`'s cb: players use them; the
# engine library over them is `make cb` (below).
CB_BOARD_SRC := src/cb/cb_board.c
# The program's objects: src/<room>/<file>.c -> $(BUILD)/<room>/<file>.o.
APP_OBJ := $(patsubst src/%.c,$(BUILD)/%.o,$(CLI_SRC) $(PROTO_SRC) $(WEB_SRC) $(TRAIN_SRC) $(UTIL_SRC) \
  $(EVAL_IO_SRC) $(CB_BOARD_SRC))
APP_CPPFLAGS = $(CPPFLAGS) $(MPI_CFLAGS) $(WEB_CPPFLAGS) $(TRAIN_CPPFLAGS) -Isrc/cli -Isrc/proto \
  -Isrc/web -Isrc/train -Isrc/util -Isrc/eval_io -Isrc/cb
# Open MPI for `condraughts study` under mpirun, when mpicc is installed (tools/deps.sh build);
# without it the study runs as one process.
ifneq ($(shell command -v mpicc 2>/dev/null),)
MPI_CFLAGS := -DCD_HAVE_MPI $(shell mpicc --showme:compile)
MPI_LIBS := $(shell mpicc --showme:link)
endif
$(APP_OBJ): $(BUILD)/%.o: src/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(if $(filter $(BUILD)/train/%,$@),$(TRAIN_FP)) $(APP_CPPFLAGS) \
	  $(DEPFLAGS) -c $< -o $@
# The trainer's floating point is the same whatever the compiler and CPU (a fit on the corpus
# writes the same bytes everywhere): no fused multiply-add contracted from a * b + c (clang's
# default, and gcc's outside ISO C).
TRAIN_FP := -ffp-contract=off

$(BIN): $(APP_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $(APP_OBJ) $(LIB) $(WEB_LIBS) $(TRAIN_LIBS) -lm -pthread $(MPI_LIBS) $(LDLIBS_WIN) -o $@

# The shipped weights built into the program (src/eval_io/eval_builtin.c's .incbin of weights/).
$(BUILD)/eval_io/eval_builtin.o: $(wildcard weights/*.cdw)

# `condraughts version` names the commit and the flags of its build: main.o is built again when
# git describe's answer changes ($(BUILD)/.commit, rewritten only then).
COMMIT := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
$(BUILD)/cli/main.o: $(BUILD)/.commit
$(BUILD)/cli/main.o: APP_CPPFLAGS += -DCD_COMMIT='"$(COMMIT)"' \
  -DCD_BUILD_FLAGS='"$(CC) $(CFLAGS)$(if $(NO_WEB), NO_WEB=1)$(if $(NO_TRAIN), NO_TRAIN=1)"'
$(BUILD)/.commit: FORCE
	@mkdir -p $(BUILD)
	@echo '$(COMMIT)' | cmp -s - $@ || echo '$(COMMIT)' > $@

$(BUILD)/.flags: FORCE
	@mkdir -p $(BUILD)
	@echo '$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $(APP_CPPFLAGS)' | cmp -s - $@ || \
	  echo '$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $(APP_CPPFLAGS)' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/test_unit: tests/test_unit.c $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -o $@

$(BUILD)/test_reference: tests/test_reference.c tests/ref/refgen.c tests/ref/refgen_board.c \
  tests/ref/refgen.h tests/ref/refgen_board.h src/core/movegen.h $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Iinclude -Isrc/core tests/test_reference.c tests/ref/refgen.c \
	  tests/ref/refgen_board.c $(LIB) -o $@

# The test suite: unit tests, perft suites to ~20M leaves per position,
# hand-derived rule tests, the reference generator on random positions.
CORE_TESTS := unit pdn-test perft-test rules-test reference-test engine-test egtb-test egtb-cli-test study-test cb-test \
              cli-test hub-test dxp-test api-test play-test bench-check fuzz-regress pdncheck-test hub-stress \
              turkish-test towers-test towers-ref-test match-test book-test pattern-test oom-test tune-test
test: deps-test
	@$(MAKE) --no-print-directory $(CORE_TESTS) web-test install-test python-test pg-test

# Install the Debian packages the tests need when missing (no-op otherwise).
deps-test:
	@sh tools/deps.sh test

# Everything but the browser (the sanitizer and clang builds run this).
test-nobrowser: $(CORE_TESTS)

unit: $(BUILD)/test_unit
	$(BUILD)/test_unit

# Turkish draughts (the full 8x8 board): geometry, FEN/Hub/notation round trips, copy-make, PDN.
$(BUILD)/test_turkish: tests/test_turkish.c tests/check.h $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -o $@

turkish-test: $(BUILD)/test_turkish
	$(BUILD)/test_turkish

# The trainer's game corpus (src/train/train_corpus.c) on games made by the test itself.
TRAIN_TEST_OBJ := $(BUILD)/train/train_corpus.o $(BUILD)/train/train_io.o $(BUILD)/train/train_gen.o \
                  $(BUILD)/util/slurp.o $(BUILD)/util/xz.o
$(BUILD)/test_corpus: tests/test_corpus.c tests/check.h $(TRAIN_TEST_OBJ) $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/train -Isrc/util $< $(TRAIN_TEST_OBJ) $(LIB) \
	  -llzma -pthread -o $@

# The learned evaluation's machinery (src/core/pattern.c, net.c) and the weights files' errors;
# the files are written and the float pass computed by the trainer's train_model.o.
MODEL_OBJ := $(BUILD)/train/train_model.o
$(BUILD)/test_pattern: tests/test_pattern.c tests/check.h $(MODEL_OBJ) $(BUILD)/eval_io/eval_io.o \
  $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/train -Isrc/eval_io $< $(MODEL_OBJ) \
	  $(BUILD)/eval_io/eval_io.o $(LIB) -o $@

$(BUILD)/test_net: tests/test_net.c tests/check.h $(MODEL_OBJ) $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/train $< $(MODEL_OBJ) $(LIB) -lm -o $@

# The same tests on net.c's plain C forward pass (built without AVX2; its object comes before the
# library's, which is then not linked).
$(BUILD)/test_net_plain: tests/test_net.c tests/check.h src/core/net.c src/core/net.h $(MODEL_OBJ) \
  $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(NO_AVX2) $(CPPFLAGS) -Isrc/train $< src/core/net.c \
	  $(MODEL_OBJ) $(LIB) -lm -o $@
NO_AVX2 := $(if $(filter x86_64-%,$(CC_TARGET)),-mno-avx2)

pattern-test: $(BUILD)/test_pattern $(BUILD)/test_net $(BUILD)/test_net_plain $(BUILD)/test_corpus $(BIN)
	$(BUILD)/test_corpus
	$(BUILD)/test_pattern
	$(BUILD)/test_net
	$(BUILD)/test_net_plain
	sh tests/weights.sh --bin $(BIN)

perft-test: $(BIN)
	sh tests/perft.sh --bin $(BIN) --max-nodes $(PERFT_MAX) tests/perft/*.perft
PERFT_MAX ?= 20000000

cli-test: $(BIN)
	sh tests/cli.sh --bin $(BIN)

rules-test: $(BIN)
	sh tests/rules.sh --bin $(BIN) tests/rules/*.moves

REF_POSITIONS ?= 3000
reference-test: $(BUILD)/test_reference
	$(BUILD)/test_reference --positions $(REF_POSITIONS)

reference-full: $(BUILD)/test_reference
	$(BUILD)/test_reference --positions 100000

# Tablebases against a plain minimax solver on every position of small signatures, and
# damaged table files (EGTB_ARGS picks variants and sizes: --variant V --pieces P ...).
$(BUILD)/test_egtb: tests/test_egtb.c $(LIB)
	$(CC) $(CSTD) -D_DEFAULT_SOURCE $(WARN) $(CFLAGS) -Iinclude $< $(LIB) -pthread -o $@

EGTB_ARGS ?=
egtb-test: $(BUILD)/test_egtb
	$(BUILD)/test_egtb $(EGTB_ARGS)

egtb-cli-test: $(BIN) $(BUILD)/egtb_verify
	sh tests/egtb.sh --bin $(BIN) --verify $(BUILD)/egtb_verify

# Built tables against forward moves (tests/egtb_verify.c): every position of small tables in
# egtb-cli-test; `make egtb-verify` samples every EGTB_EVERY-th position of the tables in EGTB_DIR.
$(BUILD)/egtb_verify: tests/egtb_verify.c $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Iinclude $< $(LIB) -pthread -o $@

EGTB_DIR ?= egtb

# The tablebases of issue 5 and docs/constitutional-endgames.md from them: constitutional to
# 4 pieces and kings-only 6, the others to 4 and kings-only 5 (ENDGAMES_* to change; the
# article's claims are all about kings). About an hour and 2.2 GB on 2 cores.
ENDGAMES_CON ?= --pieces 4 --kings-pieces 6
ENDGAMES_OTHER ?= --pieces 4 --kings-pieces 5
endgames: $(BIN)
	$(BIN) egtb build --variant constitutional $(ENDGAMES_CON) --dir $(EGTB_DIR)
	for v in international killer modern; do \
	  $(BIN) egtb build --variant $$v $(ENDGAMES_OTHER) --dir $(EGTB_DIR) || exit 1; done
	$(BIN) egtb report --claims docs/claims/constitutional.claims --dir $(EGTB_DIR) \
	  > docs/constitutional-endgames.md
EGTB_EVERY ?= 97
EGTB_VARIANTS ?= constitutional international killer modern
egtb-verify: $(BUILD)/egtb_verify
	@for v in $(EGTB_VARIANTS); do \
	  $(BUILD)/egtb_verify --dir $(EGTB_DIR) --variant $$v --every $(EGTB_EVERY) | tail -n 1 || exit 1; done

# condraughts study: its statistics (test_stats), then tiny studies (tests/study.sh): the report's
# totals, a run killed and resumed, two MPI ranks against one process, bad arguments.
$(BUILD)/test_stats: tests/test_stats.c src/cli/stats.c src/cli/stats.h tests/check.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Isrc/cli tests/test_stats.c src/cli/stats.c -lm -o $@

study-test: $(BUILD)/test_stats $(BIN)
	$(BUILD)/test_stats
	sh tests/study.sh --bin $(BIN)

# condraughts match, the referee: its engine processes (test_proc: SIGPIPE's default action in
# the child, a write's deadline), then fake Hub engines that hang, overrun, resign, move illegally
# or die; adjudications; clocks; Hub 1; the SPRT (its formulas: test_stats in study-test).
# (the Windows build runs it under wine in windows-test, on src/compat/win/proc.c)
PROC_OBJ := $(BUILD)/$(if $(EXE),compat/win,cli)/proc.o
$(BUILD)/test_proc$(EXE): tests/test_proc.c tests/check.h src/cli/proc.h $(PROC_OBJ) $(BUILD)/cli/cliutil.o \
  $(EVAL_IO_SRC:src/%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -Isrc/cli tests/test_proc.c $(PROC_OBJ) \
	  $(BUILD)/cli/cliutil.o $(EVAL_IO_SRC:src/%.c=$(BUILD)/%.o) $(LIB) -lm -pthread -o $@

# The opening book (src/core/book.c, `condraughts book`, docs/book.md): the library's file and
# probe, then a small book built by the program and checked against the search (tests/book.sh).
$(BUILD)/test_book: tests/test_book.c tests/check.h $(BUILD)/eval_io/eval_io.o $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/eval_io $< $(BUILD)/eval_io/eval_io.o $(LIB) -o $@

book-test: $(BUILD)/test_book $(BIN)
	$(BUILD)/test_book
	sh tests/book.sh --bin $(BIN) --test $(BUILD)/test_book

match-test: $(BUILD)/test_proc $(BIN)
	$(BUILD)/test_proc
	sh tests/match.sh --bin $(BIN)

# Sanitizers: a separate build tree, smaller perft budget.
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  PERFT_MAX=300000 REF_POSITIONS=300 ENGINE_POSITIONS=40 \
	  EGTB_ARGS="--variant constitutional --pieces 2 --variant russian-constitutional --pieces 3" \
	  test-nobrowser

clang:
	$(MAKE) CC=clang BUILD=build-clang PERFT_MAX=2000000 REF_POSITIONS=500 ENGINE_POSITIONS=60 \
	  EGTB_ARGS="--variant constitutional --pieces 3 --variant english --pieces 3" test-nobrowser

perft-full: $(BIN)
	sh tests/perft.sh --bin $(BIN) --max-nodes 20000000000 tests/perft/*.perft

bench-perft: $(BIN)
	sh bench/perft.sh $(BIN)

format:
	clang-format -i include/*.h src/*/*.c src/*/*.h tests/*.c tests/*.h

clean:
	rm -rf build build-asan build-clang build-fuzz build-tsan build-portable build-aarch64 build-windows

# ---------------------------------------------------------------- install
# make install [PREFIX=/usr/local] [DESTDIR=]: the program, its data (weights, the page, the
# openings) in PREFIX/share/condraughts, where the program looks when none is beside it
# (cli_data_path), the library (libcondraughts.so with its soname, libcondraughts.a), the header,
# a pkg-config file and the manual page (condraughts help --man: the commands' own tables). make uninstall removes what install put there.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
SOVERSION := 0
SHLIB := $(BUILD)/libcondraughts.so.$(SOVERSION)
PIC_OBJ := $(patsubst src/%.c,$(BUILD)/pic/%.o,$(CORE_SRC) $(TOWERS_SRC))
$(BUILD)/pic/core/%.o: src/core/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC $(CPPFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/pic/towers/%.o: src/towers/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -Iinclude $(DEPFLAGS) -c $< -o $@
$(SHLIB): $(PIC_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libcondraughts.so.$(SOVERSION) $^ -lm -pthread -o $@
INSTALLED_DATA := $(wildcard weights/*.cdw) $(wildcard web/*) $(wildcard openings/*.txt) \
  $(wildcard books/*.cdb)
# The Python module (python/, docs/python.md): PYTHON is Debian's interpreter (python3-dev's
# headers match it); another one with its headers may be named.
PYTHON ?= /usr/bin/python3
PY_INCLUDE = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
PY_EXT = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PY_MODULE = $(BUILD)/python/condraughts$(PY_EXT)
# make install puts the module where the interpreter of PREFIX looks (Debian's python3 reads
# /usr/lib/python3/dist-packages and /usr/local/lib/python3.X/dist-packages), when PYTHON's
# headers are there to build it; PYDIR names another folder.
PY_HAVE = $(wildcard $(PY_INCLUDE)/Python.h)
PY_VER = $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
PYDIR ?= $(if $(filter /usr,$(PREFIX)),$(PREFIX)/lib/python3/dist-packages,$(PREFIX)/lib/python$(PY_VER)/dist-packages)
install: $(BIN) $(LIB) $(SHLIB) $(if $(PY_HAVE),python)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/condraughts/weights $(DESTDIR)$(PREFIX)/share/condraughts/web \
	  $(DESTDIR)$(PREFIX)/share/condraughts/openings $(DESTDIR)$(PREFIX)/share/condraughts/books \
	  $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/condraughts
	$(BIN) help --man > $(DESTDIR)$(PREFIX)/share/man/man1/condraughts.1
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libcondraughts.a
	install -m 755 $(SHLIB) $(DESTDIR)$(LIBDIR)/libcondraughts.so.$(SOVERSION)
	ln -sf libcondraughts.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcondraughts.so
	install -m 644 include/condraughts.h $(DESTDIR)$(PREFIX)/include/condraughts.h
	printf 'prefix=%s\nlibdir=%s\nincludedir=$${prefix}/include\n\nName: condraughts\nDescription: %s\nVersion: %s\nLibs: -L$${libdir} -lcondraughts\nLibs.private: -lm -pthread\nCflags: -I$${includedir}\n' \
	  '$(PREFIX)' '$(LIBDIR)' 'draughts rules, notation, engine and endgame tables' \
	  "$$(sed -n 's/^#define CD_VERSION "\(.*\)"/\1/p' include/condraughts.h)" \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/condraughts.pc
	for f in $(INSTALLED_DATA); do install -m 644 $$f $(DESTDIR)$(PREFIX)/share/condraughts/$$f; done
	$(if $(PY_HAVE),install -d $(DESTDIR)$(PYDIR) && install -m 644 $(PY_MODULE) $(DESTDIR)$(PYDIR)/,\
	  @echo 'make install: the Python module left out: no Python.h for $(PYTHON) (Debian: python3-dev)')
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/condraughts $(DESTDIR)$(LIBDIR)/libcondraughts.a \
	  $(DESTDIR)$(LIBDIR)/libcondraughts.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libcondraughts.so \
	  $(DESTDIR)$(PREFIX)/include/condraughts.h $(DESTDIR)$(LIBDIR)/pkgconfig/condraughts.pc \
	  $(DESTDIR)$(PREFIX)/share/man/man1/condraughts.1 $(DESTDIR)$(PYDIR)/condraughts$(PY_EXT)
	for f in $(INSTALLED_DATA); do rm -f $(DESTDIR)$(PREFIX)/share/condraughts/$$f; done
	-rmdir $(DESTDIR)$(PREFIX)/share/condraughts/weights $(DESTDIR)$(PREFIX)/share/condraughts/web \
	  $(DESTDIR)$(PREFIX)/share/condraughts/openings $(DESTDIR)$(PREFIX)/share/condraughts/books \
	  $(DESTDIR)$(PREFIX)/share/condraughts 2>/dev/null
# make deb: the Debian package (tools/deb.sh) of a `make install PREFIX=/usr`, in $(BUILD)/;
# make deb-test installs it on this machine with dpkg (root, or sudo without a password), uses
# it from /usr and removes it (CI runs it; without root it says SKIPPED).
DEB_ROOT := $(BUILD)/deb-root
deb: $(BIN) $(LIB) $(SHLIB)
	rm -rf $(DEB_ROOT)
	$(MAKE) --no-print-directory PREFIX=/usr DESTDIR=$(abspath $(DEB_ROOT)) install > /dev/null
	sh tools/deb.sh $(DEB_ROOT) $(BIN) $(BUILD)/condraughts.deb $(BUILD)/python3-condraughts.deb
deb-test: deb
	sh tests/deb.sh --deb $(BUILD)/condraughts.deb --pydeb $(BUILD)/python3-condraughts.deb
install-test: $(BIN) $(LIB) $(SHLIB)
	sh tests/install.sh --make "$(MAKE)" --build $(BUILD)

# The main job: build what is missing and run the program (ARGS picks the command).
ARGS ?= show --variant constitutional
run: $(BIN)
	$(BIN) $(ARGS)

# The tests that read the shipped weights link the folder's reader (src/eval_io/).
EVAL_IO_OBJ := $(BUILD)/eval_io/eval_io.o
$(BUILD)/test_engine: tests/test_engine.c $(EVAL_IO_OBJ) $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/eval_io $< $(EVAL_IO_OBJ) $(LIB) -o $@

ENGINE_POSITIONS ?= 200
engine-test: $(BUILD)/test_engine
	$(BUILD)/test_engine $(ENGINE_POSITIONS)

# The tuning build (src/core/search_params.h): the search's parameters, constants elsewhere,
# settable by name (`self:lmrdiv=200` in a match, cd_engine_set_option, Hub's set-param), as
# Ethereal's -DTUNE; in its own tree, $(TUNE_BUILD)/condraughts. tune-test runs test_engine
# there, with the checks that switch the parameters.
TUNE_BUILD = $(BUILD)-tune
TUNE_MAKE = $(MAKE) --no-print-directory BUILD=$(TUNE_BUILD) CFLAGS='$(CFLAGS) -DCD_TUNE'
tune:
	@$(TUNE_MAKE) all
tune-test:
	@$(TUNE_MAKE) ENGINE_POSITIONS=$(ENGINE_POSITIONS) engine-test

# The bench node count is the engine's functional signature: a change in
# search or evaluation behaviour must update tests/bench.expected.
# $(call bench_signature,COMMAND[,WHICH]): COMMAND's `bench` node count against the file.
bench_signature = got=$$($(1) bench | awk '/^Nodes:/ {print $$2}'); want=$$(cat tests/bench.expected); \
	if [ "$$got" = "$$want" ]; then echo "bench: signature $$got ok$(2)"; \
	else echo "bench: signature $$got$(2), tests/bench.expected says $$want"; exit 1; fi
bench-check: $(BIN)
	@$(call bench_signature,$(BIN))

bench: $(BIN)
	$(BIN) bench

# Self-play into the game corpus, in the background and resumable (corpus/README.md):
#   make selfplay VARIANT=international GEN=g8 SEED=8 [NODES=5000]
NODES ?= 5000
selfplay: $(BIN)
	sh tools/selfplay.sh --variant $(VARIANT) --gen $(GEN) --seed $(SEED) --nodes $(NODES) --bin $(BIN)

# The learned evaluation's weights made again from nothing (docs/training.md): self-play with the
# hand-set evaluation, then the fit, for each family; TRAIN_GAMES_<family> games each. Hours on
# 2 cores; the data goes to TRAIN_DIR, the weights to weights/.
TRAIN_DIR ?= train-data
TRAIN_NODES ?= 1500
TRAIN_FIT ?= --lr 1 --epochs 10 --l2 0 --lambda 0.4
TRAIN_GAMES_international ?= 6000
TRAIN_GAMES_constitutional ?= 6000
TRAIN_GAMES_russian ?= 9000
TRAIN_GAMES_killer ?= 6000
TRAIN_GAMES_modern ?= 6000
TRAIN_GAMES_english ?= 9000
TRAIN_GAMES_italian ?= 9000
TRAIN_GAMES_spanish ?= 9000
TRAIN_GAMES_czech ?= 9000
train_one = $(BIN) train gen --variant $(1) --games $(TRAIN_GAMES_$(1)) --nodes $(TRAIN_NODES) \
    --classic --seed 1 --threads 2 --out $(TRAIN_DIR)/$(1)-g0.dat && \
    $(BIN) train fit --variant $(1) --data $(TRAIN_DIR)/$(1)-g0.dat $(TRAIN_FIT) --out weights/$(1).cdw
# train_from V FILE FAMILY: variant V's family FAMILY starts as the weights of FILE under its
# own name (a fit with a step of 1e-6 on a few games, as the shipped 8x8 files began)
train_from = $(BIN) train gen --variant $(1) --games 20 --nodes 300 --classic --seed 1 \
    --out $(TRAIN_DIR)/$(1)-start.dat && \
    $(BIN) train fit --variant $(1) --data $(TRAIN_DIR)/$(1)-start.dat --init weights/$(2).cdw \
    --epochs 1 --lr 1e-6 --out weights/$(3).cdw
# The shipped files fitted on the corpus (docs/training.md, "The corpus"), fitted again into
# $(BUILD)/rebuild/ and compared with weights/ byte for byte: International g11 (the 78 chunks
# of g8, the 63 of g9, the 63 of g10 and the first 76 of g11, with the flank strips, from g11's
# start.cdw; about 10 minutes on one core and 8 GB of memory), English g4 (the 21 chunks of g1,
# the 20 of g2, the 23 of g3 and the 33 of g4, from g4's start.cdw: five minutes), Italian g0 (its 10
# chunks, from material: two minutes), Spanish g1 (the 10 chunks of g0 and the 53 of g1, from
# g1's start.cdw: a minute), Czech g0 (its 10 chunks, from material: a minute), Constitutional
# g8 (the 15 chunks of g6, the 72 of g7 and the 60 of g8, with the strips, from g8's start.cdw:
# two minutes), Killer g2 (the first 14 chunks of g2, with the strips, from its start.cdw) and
# Modern (International g11's weights under Modern's name: a fit with a step of 1e-6 on 20
# games).
# Not in make test, which checks a slice of each corpus (tests/weights.sh).
.PHONY: rebuild-weights
cd_comma := ,
cd_space := $(subst ,, )
corpus_list = $(subst $(cd_space),$(cd_comma),$(sort $(wildcard $(1))))
REBUILD_DIR = $(BUILD)/rebuild
rebuild-weights: $(BIN)
	@mkdir -p $(REBUILD_DIR)
	$(BIN) train fit --variant international --data $(call corpus_list,corpus/international/g8/s8-*.cdg.xz corpus/international/g9/s9-*.cdg.xz corpus/international/g10/s10-*.cdg.xz corpus/international/g11/s11-0000[0-6]*.cdg.xz corpus/international/g11/s11-00007[0-5]*.cdg.xz) \
	  --init corpus/international/g11/start.cdw --strips --epochs 3 --lr 0.3 --seed 105 --k 155.4 --lambda 0.8 \
	  --out $(REBUILD_DIR)/international.cdw
	$(BIN) train fit --variant english --data $(call corpus_list,corpus/english/g1/s2-*.cdg.xz corpus/english/g2/s3-*.cdg.xz corpus/english/g3/s4-*.cdg.xz corpus/english/g4/s5-*.cdg.xz) \
	  --init corpus/english/g4/start.cdw --epochs 6 --lr 0.3 --seed 14 --k 379.3 --lambda 0.8 \
	  --out $(REBUILD_DIR)/english.cdw
	$(BIN) train fit --variant italian --data corpus/italian/g0 --lambda 0.8 --seed 1 \
	  --out $(REBUILD_DIR)/italian.cdw
	$(BIN) train fit --variant spanish --data $(call corpus_list,corpus/spanish/g0/s1-*.cdg.xz corpus/spanish/g1/s2-*.cdg.xz) \
	  --init corpus/spanish/g1/start.cdw --epochs 3 --lr 0.3 --seed 2 --k 220.1 --lambda 0.8 \
	  --out $(REBUILD_DIR)/spanish.cdw
	$(BIN) train fit --variant czech --data corpus/czech/g0 --lambda 0.8 --seed 1 \
	  --out $(REBUILD_DIR)/czech.cdw
	$(BIN) train fit --variant constitutional --data $(call corpus_list,corpus/constitutional/g6/s6-*.cdg.xz corpus/constitutional/g7/s7-*.cdg.xz corpus/constitutional/g8/s8-*.cdg.xz) \
	  --init corpus/constitutional/g8/start.cdw --strips --epochs 3 --lr 0.3 --seed 81 --k 155.4 --lambda 0.8 \
	  --out $(REBUILD_DIR)/constitutional.cdw
	$(BIN) train fit --variant killer --data $(call corpus_list,corpus/killer/g2/s2-00000[0-6]*.cdg.xz) \
	  --init corpus/killer/g2/start.cdw --strips --epochs 2 --lr 0.1 --seed 22 --k 155.4 --lambda 0.8 \
	  --out $(REBUILD_DIR)/killer.cdw
	$(BIN) train gen --variant modern --games 20 --nodes 300 --classic --seed 1 --out $(REBUILD_DIR)/modern-start.dat
	$(BIN) train fit --variant modern --data $(REBUILD_DIR)/modern-start.dat \
	  --init corpus/international/g13/start.cdw --strips --epochs 1 --lr 1e-6 --k 155.4 --lambda 0.8 \
	  --out $(REBUILD_DIR)/modern.cdw
	cmp $(REBUILD_DIR)/international.cdw weights/international.cdw
	cmp $(REBUILD_DIR)/english.cdw weights/english.cdw
	cmp $(REBUILD_DIR)/italian.cdw weights/italian.cdw
	cmp $(REBUILD_DIR)/spanish.cdw weights/spanish.cdw
	cmp $(REBUILD_DIR)/czech.cdw weights/czech.cdw
	cmp $(REBUILD_DIR)/constitutional.cdw weights/constitutional.cdw
	cmp $(REBUILD_DIR)/killer.cdw weights/killer.cdw
	cmp $(REBUILD_DIR)/modern.cdw weights/modern.cdw
	@echo 'rebuild-weights: international.cdw, english.cdw, italian.cdw, spanish.cdw, czech.cdw, constitutional.cdw, killer.cdw and modern.cdw made again, byte for byte'

weights: $(BIN)
	@mkdir -p $(TRAIN_DIR) weights
	$(call train_one,international)
	$(call train_one,constitutional)
	$(call train_one,russian)
	$(call train_one,killer)
	$(call train_one,modern)
	$(call train_one,english)
	$(call train_one,italian)
	$(call train_one,spanish)
	$(call train_one,czech)
	$(call train_from,brazilian,russian,brazilian)
	$(call train_from,russian-constitutional,russian,russian-const)
	$(call train_from,brazilian-constitutional,russian,brazilian-const)

$(BUILD)/test_pdn: tests/test_pdn.c tests/pdn_check.h tests/check.h $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -o $@

$(BUILD)/test_pdn_read_errors: tests/test_pdn_read_errors.c tests/pdn_check.h tests/check.h $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -o $@

pdn-test: $(BUILD)/test_pdn $(BUILD)/test_pdn_read_errors
	$(BUILD)/test_pdn tests/pdn
	$(BUILD)/test_pdn_read_errors

# Out of memory reported one way (CD_ERR_OVERFLOW): each allocation the library makes in a call
# failed in turn, through the linker's --wrap of the library's malloc, calloc and realloc.
$(BUILD)/test_oom: tests/test_oom.c tests/check.h $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -pthread \
	  -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@

oom-test: $(BUILD)/test_oom
	$(BUILD)/test_oom

# hub-pydraughts: pydraughts (installed, or PYDRAUGHTS=DIR, its source tree) plays the program;
# without it the script says SKIPPED and counts the checks so.
hub-test: $(BIN)
	bash tests/hub.sh --bin $(BIN)
	$(if $(PYDRAUGHTS),PYTHONPATH="$(PYDRAUGHTS)") python3 tests/hub_pydraughts.py $(BIN)

$(BUILD)/test_dxp: tests/test_dxp.c tests/check.h src/proto/dxp.h $(BUILD)/proto/dxp_codec.o $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) tests/test_dxp.c $(BUILD)/proto/dxp_codec.o $(LIB) -o $@

$(BUILD)/test_dxp_peer: tests/test_dxp_peer.c tests/check.h src/proto/dxp.h $(BUILD)/proto/dxp_codec.o $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) tests/test_dxp_peer.c $(BUILD)/proto/dxp_codec.o $(LIB) \
	  -o $@

# DXP: message unit tests, scripted peers against the binary, a loopback game.
dxp-test: $(BUILD)/test_dxp $(BUILD)/test_dxp_peer $(BIN)
	$(BUILD)/test_dxp
	$(BUILD)/test_dxp_peer --bin $(BIN)
	sh tests/dxp.sh --bin $(BIN)
	$(if $(PYDRAUGHTS),PYTHONPATH="$(PYDRAUGHTS)") python3 tests/dxp_pydraughts.py $(BIN)

# The web API: a server on a free port, driven with curl (tests/api.sh).
api-test: $(BIN)
	sh tests/api.sh --bin $(BIN)

# Games between people (/api/play): Glicko-2 against Glickman's worked example (test_glicko),
# then seats, 403s, Origin/Host, clocks, ratings, SIGKILL (tests/play.sh).
$(BUILD)/test_glicko: tests/test_glicko.c src/web/glicko.c src/web/glicko.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) tests/test_glicko.c src/web/glicko.c -lm -o $@

play-test: $(BUILD)/test_glicko $(BIN) $(BUILD)/sitebench
	$(BUILD)/test_glicko
	sh tests/play.sh --bin $(BIN) --sitebench $(BUILD)/sitebench

# Several servers on one PostgreSQL store behind nginx (docs/deploy.md): a private cluster, two
# servers, docs/deploy/nginx.conf with TLS in front; moves across them, SIGKILL, a flag decided
# once, the limits by address through nginx (X-Real-IP), 20 games with each player on its own
# server (sitebench; tests/pg.sh, about 45 s).
# play-pg-test: the whole play suite on the PostgreSQL store
# (about 4 min: .ci/run).
pg-test: $(BIN) $(BUILD)/sitebench
	sh tests/pg.sh --bin $(BIN) --sitebench $(BUILD)/sitebench

play-pg-test: $(BIN)
	sh tests/play.sh --bin $(BIN) --pg

# docs/deploy.md followed as written (tests/backup.sh): its systemd unit is
# docs/deploy/condraughts@.service and systemd-analyze verify passes it; an SQLite site backed up
# while its server runs and restored in place, a PostgreSQL one dumped while it runs and restored
# into a fresh cluster: a fresh server on each copy answers the same games, ratings and logins.
backup-test: $(BIN)
	sh tests/backup.sh --bin $(BIN)

# The play suite with a million finished games in the store (issue 49: the lobby, a finished
# game, a profile of a million games and a leaderboard of a million accounts still answer in
# milliseconds; the figures printed, docs/api.md). Not in make test: a few minutes more.
play-big: $(BUILD)/test_glicko $(BIN) $(BUILD)/sitebench
	PLAY_NBIG=1000000 sh tests/play.sh --bin $(BIN) --sitebench $(BUILD)/sitebench

# Play in the browser: serves web/ and the API on the URL it prints (games are kept in ./games;
# Ctrl-C stops).
PLAY_PORT ?= 8080
NPROC := $(shell nproc 2>/dev/null || echo 2)
play:
	@sh tools/deps.sh build
	@$(MAKE) --no-print-directory -j$(NPROC) $(BIN)
	$(BIN) serve --port $(PLAY_PORT)

# Browser tests of web/: headless Chromium (/usr/bin/chromium) driven by playwright-core
# (run.mjs: the board against the engine; play.mjs: two players and a spectator in play.html;
# profile.mjs: the players' profiles and the leaderboard, and their links; review.mjs: a finished
# game reviewed on the analysis board).
web-test: $(BIN)
	cd tests/web && { test -d node_modules || npm install --no-audit --no-fund; } && \
	  node run.mjs --bin $(abspath $(BIN)) && node play.mjs --bin $(abspath $(BIN)) && \
	  node profile.mjs --bin $(abspath $(BIN)) && node review.mjs --bin $(abspath $(BIN))

# Pictures of play.html for the docs (not a test): the lobby, a game between two people and the
# spectator's view, each at 1280x800 and 390x844, made by tests/web/screenshots.mjs, a
# profile and a leaderboard, by tests/web/profile.mjs, and a game's review on the analysis board,
# by tests/web/review.mjs, into docs/screenshots/.
screenshots: $(BIN)
	cd tests/web && { test -d node_modules || npm install --no-audit --no-fund; } && \
	  node screenshots.mjs --bin $(abspath $(BIN)) && \
	  node profile.mjs --bin $(abspath $(BIN)) --shots $(abspath docs/screenshots) && \
	  node review.mjs --bin $(abspath $(BIN)) --shots $(abspath docs/screenshots)

# ---------------------------------------------------------------- Python (python/, docs/python.md)
# make python: the module condraughts (python/module.c over the library's PIC objects, with
# the shipped weights built in as the program has them) in $(BUILD)/python/; make python-test:
# its unittest suite (PYTHON and the module's name: above, beside install).
.PHONY: python python-test
PY_EVAL_OBJ := $(BUILD)/pic/eval_io/eval_io.o $(BUILD)/pic/eval_io/eval_builtin.o
$(BUILD)/pic/eval_io/%.o: src/eval_io/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC $(CPPFLAGS) -Isrc/eval_io $(DEPFLAGS) -c $< -o $@
$(BUILD)/pic/eval_io/eval_builtin.o: $(wildcard weights/*.cdw)
$(BUILD)/python/module.o: python/module.c include/condraughts.h src/eval_io/eval_io.h \
  $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden -Iinclude -Isrc/eval_io \
	  -I$(PY_INCLUDE) -c $< -o $@
python: $(BUILD)/python/module.o $(PIC_OBJ) $(PY_EVAL_OBJ)
	$(CC) $(CFLAGS) -shared $(BUILD)/python/module.o $(PIC_OBJ) $(PY_EVAL_OBJ) -lm -pthread \
	  -o $(PY_MODULE)
python-test: python
	PYTHONPATH=$(BUILD)/python $(PYTHON) -m unittest -v python/test_condraughts.py
# make python-bench [PYDRAUGHTS=DIR] [PY_BENCH="5 russian"]: perft through the module and through
# pydraughts (its source tree DIR, as for hub-test) with python/bench_perft.py (docs/python.md).
.PHONY: python-bench
PY_BENCH ?= 4
python-bench: python
	PYTHONPATH=$(BUILD)/python$(if $(PYDRAUGHTS),:$(PYDRAUGHTS)) $(PYTHON) python/bench_perft.py \
	  $(PY_BENCH)

# ---------------------------------------------------------------- CheckerBoard (src/cb/, docs/gui.md)
# make cb: condraughts as a CheckerBoard engine, $(BUILD)/condraughts_cb.so (getmove,
# enginecommand, islegal over the library's PIC objects, the shipped weights built in); make
# windows builds condraughts_cb.dll. cb-test: the library called directly on known positions
# (tests/cb/test_cb.c), then `match` driving CheckerBoard-API engines: tests/cb/cbtest_engine.c,
# a tiny English engine of its own (answering through the board, through the CBmove only, one
# ignoring compulsory captures, one that crashes, one that hangs, one that prints to stdout), and
# condraughts_cb.so itself
# (tests/cb/cb.sh).
.PHONY: cb cb-test
CB_SO := $(BUILD)/condraughts_cb.so
CB_SRC := $(wildcard src/cb/*.c)
CB_PIC_OBJ := $(patsubst src/%.c,$(BUILD)/pic/%.o,$(CB_SRC))
$(BUILD)/pic/cb/%.o: src/cb/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -fvisibility=hidden $(CPPFLAGS) -Isrc/eval_io $(DEPFLAGS) \
	  -c $< -o $@
$(CB_SO): $(CB_PIC_OBJ) $(PIC_OBJ) $(PY_EVAL_OBJ) src/cb/cb_exports.map
	$(CC) $(CFLAGS) -shared -Wl,--version-script=src/cb/cb_exports.map $(CB_PIC_OBJ) $(PIC_OBJ) \
	  $(PY_EVAL_OBJ) -lm -pthread -o $@
cb: $(CB_SO)

$(BUILD)/cbtest_engine.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb $< -o $@
$(BUILD)/cbtest_engine_cbmove.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb -DCBTEST_ANSWER_CBMOVE $< -o $@
$(BUILD)/cbtest_engine_illegal.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb -DCBTEST_IGNORE_CAPTURE $< -o $@
$(BUILD)/cbtest_engine_crash.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb -DCBTEST_CRASH $< -o $@
$(BUILD)/cbtest_engine_hang.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb -DCBTEST_HANG $< -o $@
$(BUILD)/cbtest_engine_chatty.so: tests/cb/cbtest_engine.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Isrc/cb -DCBTEST_CHATTY $< -o $@
$(BUILD)/test_cb: tests/cb/test_cb.c tests/check.h src/cb/cb_api.h $(CB_SO)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Isrc/cb -Itests $< -ldl -o $@
# The Windows library (make windows): the same sources, objects of the Windows build, linked
# statically (no DLL but Windows' own), exporting the functions marked CB_EXPORT only.
$(BUILD)/cb/cb_engine.o: src/cb/cb_engine.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/eval_io $(DEPFLAGS) -c $< -o $@
$(BUILD)/condraughts_cb.dll: $(BUILD)/cb/cb_engine.o $(BUILD)/cb/cb_board.o $(LIB) \
  $(BUILD)/eval_io/eval_io.o $(BUILD)/eval_io/eval_builtin.o
	$(CC) $(CFLAGS) -shared $(LDFLAGS) $^ -lm -pthread -o $@
$(BUILD)/cb_loadtest.exe: tests/cb/cb_loadtest.c src/cb/cb_api.h
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(LDFLAGS) -Isrc/cb $< -o $@
cb-test: $(BUILD)/test_cb $(BUILD)/cbtest_engine.so $(BUILD)/cbtest_engine_cbmove.so \
  $(BUILD)/cbtest_engine_illegal.so $(BUILD)/cbtest_engine_crash.so $(BUILD)/cbtest_engine_hang.so \
  $(BUILD)/cbtest_engine_chatty.so $(CB_SO) $(BIN)
	$(BUILD)/test_cb $(CB_SO)
	sh tests/cb/cb.sh --bin $(BIN) --build $(BUILD)

# ---------------------------------------------------------------- hostile input (tests/fuzz/)
.PHONY: fuzz fuzz-ci fuzz-build fuzz-regress pdncheck-test hub-stress hub-games tsan valgrind \
        load-test
# Fuzz targets, one per parser: FEN/position strings, move text, PDN files, Hub lines, DXP
# messages, HTTP API requests. Replay programs (any compiler, tests/fuzz/replay.c) run the seed
# corpora and the regression inputs in `make test`; libFuzzer binaries (clang) are in build-fuzz/.
FUZZ_TARGETS := fen move pdn dxp hub http
FUZZ_SECONDS ?= 300
# The program's objects each target links (built with the same flags in the same $(BUILD)).
FUZZ_OBJ_dxp := $(BUILD)/proto/dxp_codec.o
FUZZ_OBJ_hub := $(BUILD)/proto/hub.o $(BUILD)/proto/hub_codec.o
FUZZ_OBJ_http := $(patsubst src/%.c,$(BUILD)/%.o,$(WEB_SRC))
FUZZ_LIBS_http := -lmicrohttpd -lcjson -lsqlite3 -lpq -lsodium -licui18n -licuuc
FUZZ_DEPS := tests/fuzz/fuzz.h $(FUZZ_OBJ_dxp) $(FUZZ_OBJ_hub) $(FUZZ_OBJ_http) \
             $(wildcard src/proto/*.h src/web/*.h)
FUZZ_OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

$(BUILD)/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(FUZZ_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) -Isrc/proto -Isrc/web tests/fuzz/replay.c $< \
	  $(FUZZ_OBJ_$*) $(LIB) $(FUZZ_LIBS_$*) -lm -pthread -o $@

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fsanitize=fuzzer $(CPPFLAGS) -Isrc/proto -Isrc/web $< \
	  $(FUZZ_OBJ_$*) $(LIB) $(FUZZ_LIBS_$*) -lm -pthread -o $@

# The seed corpora and every regression input through each target (part of `make test`).
fuzz-regress: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay_%)
	@for t in $(FUZZ_TARGETS); do \
	  $(BUILD)/fuzz/replay_$$t -q tests/fuzz/corpus/$$t tests/fuzz/regress/$$t || exit 1; done

fuzz-build:
	@$(MAKE) --no-print-directory CC=clang BUILD=build-fuzz OPT="$(FUZZ_OPT) -fsanitize=fuzzer-no-link" \
	  $(FUZZ_TARGETS:%=build-fuzz/fuzz/fuzz_%)

# FUZZ_SECONDS per target (make fuzz FUZZ_TARGETS=pdn FUZZ_SECONDS=600 for one).
fuzz: fuzz-build
	sh tests/fuzz/run.sh --seconds $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# CI: a fixed number of inputs per target from seed 1 and a fresh working corpus (4-5 min in all),
# so the amount of fuzzing does not depend on the machine's load and runs are close to
# reproducible (coverage feedback still varies a little from run to run). Open-ended fuzzing is
# `make fuzz`; what it finds goes to tests/fuzz/regress/, which seeds every later run.
FUZZ_CI_RUNS := fen:600000 move:250000 pdn:250000 dxp:300000 hub:40000 http:10000
fuzz-ci: fuzz-build
	rm -rf build-fuzz/ci
	sh tests/fuzz/run.sh --out build-fuzz/ci --seed 1 $(FUZZ_CI_RUNS)

# `condraughts pdn check` and `pdn annotate` on good and bad files, and `pdn check` on the real files of ../shared/data/real-pdn
# (games read and refused per file as tests/pdncheck/real-pdn.expected says; SKIPPED and counted
# without them).
pdncheck-test: $(BIN)
	sh tests/pdncheck.sh --bin $(BIN)
	sh tests/annotate.sh --bin $(BIN)
	sh tests/pdncheck-real.sh --bin $(BIN) --dir ../shared/data/real-pdn

# Hub robustness: garbage lines, stop during every kind of search, a few timed games (lenient
# here; `make hub-games` holds every move to 5% of its time).
hub-stress: $(BIN) $(BUILD)/hubgames
	$(BUILD)/hubgames --bin $(BIN) --stress --games 6 --max-plies 16 --tolerance 1

# HUB_GAMES fast games between two Hub engines, each move's time measured against its limit.
# The engines and the driver run at HUB_NICE (when allowed: root), so that on a shared machine
# the time measured is the engine's and not the scheduler's.
HUB_GAMES ?= 1000
HUB_MOVETIME ?= 0.05
HUB_NICE ?= -10
$(BUILD)/hubgames: tests/load/hubgames.c $(LIB)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $(CPPFLAGS) $< $(LIB) -lm -o $@
hub-games: $(BIN) $(BUILD)/hubgames
	$(BUILD)/hubgames --bin $(BIN) --games $(HUB_GAMES) --movetime $(HUB_MOVETIME) --nice $(HUB_NICE)

# ThreadSanitizer: the tests that run threads (engine stop from another thread, the server's
# request and SSE analysis threads, the Hub search thread). Reports go to build-tsan/tsan.*.
# C11 threads and mutexes are routed to pthreads (tests/tsan/c11threads.c, preloaded) because
# the sanitizer does not intercept them.
TSAN_REPORT = $(abspath build-tsan)/tsan
TSAN_MAKE = $(MAKE) --no-print-directory CC=clang BUILD=build-tsan \
  OPT="-O1 -fno-omit-frame-pointer -fsanitize=thread" ENGINE_POSITIONS=20
tsan:
	@mkdir -p build-tsan && rm -f $(TSAN_REPORT).*
	@$(TSAN_MAKE) build-tsan/condraughts build-tsan/test_engine build-tsan/hubgames
	clang -O1 -shared -fPIC -o build-tsan/c11threads.so tests/tsan/c11threads.c -pthread
	LD_PRELOAD=$(abspath build-tsan)/c11threads.so \
	  TSAN_OPTIONS="log_path=$(TSAN_REPORT) second_deadlock_stack=1" \
	  $(TSAN_MAKE) engine-test api-test play-test hub-test hub-stress
	@if ls $(TSAN_REPORT).* >/dev/null 2>&1; then cat $(TSAN_REPORT).*; \
	  echo "tsan: data races reported (above)"; exit 1; else echo "tsan: no reports"; fi

# The bench under valgrind (memcheck): no invalid access, no leak. Built for the baseline CPU
# (PORTABLE=1, build-portable/): valgrind does not know every instruction -march=native may
# choose (AVX-512 on the CI machine's EPYC).
VALGRIND_DEPTH ?= 8
valgrind:
	@$(MAKE) --no-print-directory BUILD=build-portable PORTABLE=1 build-portable/condraughts
	valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  build-portable/condraughts bench $(VALGRIND_DEPTH)

# The web server under load (wrk), its limits, and SIGKILL while saving (tests/load/run.sh).
LOAD_SECONDS ?= 20
$(BUILD)/slowclient: tests/load/slowclient.c
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $< -o $@
load-test: $(BIN) $(BUILD)/slowclient
	sh tests/load/run.sh --bin $(BIN) --slow $(BUILD)/slowclient --seconds $(LOAD_SECONDS)

# Thousands of games between people on one machine (not a test; docs/api.md, "Many games"):
# SITE_GAMES games, two players each, and SITE_SPECTATORS spectators, every person from a
# loopback address of its own with its stream and a keep-alive connection (tests/load/sitebench.c,
# an epoll client), moves SITE_THINK ms apart; figures for SITE_SECONDS. SITE_DB=DIR keeps the
# server's store in DIR (e.g. /dev/shm: without the disk's fsync per move). SITE_PG=1: the store
# is a private PostgreSQL cluster (tests/pg_lib.sh) shared by SITE_SERVERS (1 or 2) servers, every
# game's players on different servers.
SITE_GAMES ?= 2000
SITE_SPECTATORS ?= 400
SITE_SECONDS ?= 60
SITE_THINK ?= 1000-2000
$(BUILD)/sitebench: tests/load/sitebench.c
	$(CC) $(CSTD) $(WARN) $(CFLAGS) $< -lcjson -o $@
.PHONY: site-bench
site-bench: $(BIN) $(BUILD)/sitebench
	sh tests/load/site_bench.sh --bin $(BIN) --client $(BUILD)/sitebench --games $(SITE_GAMES) \
	  --spectators $(SITE_SPECTATORS) --seconds $(SITE_SECONDS) --think $(SITE_THINK) \
	  $(if $(SITE_DB),--db-dir $(SITE_DB)) $(if $(SITE_PG),--pg) \
	  $(if $(SITE_SERVERS),--servers $(SITE_SERVERS))

# ---------------------------------------------------------------- portable builds (PORTABLE=1)
# The baseline x86-64 build (build-portable/) runs the bench on an emulated CPU of the first
# x86-64s (qemu-x86_64 -cpu qemu64: no SSE4, AVX or BMI) and gives the native signature; the
# aarch64 cross build (build-aarch64/: Debian's gcc-aarch64-linux-gnu, NO_WEB=1 NO_TRAIN=1 so that
# no arm64 libraries are needed) runs the unit, PDN, perft and rule tests, `serve` and the bench under
# qemu-aarch64 (perft to A64_PERFT_MAX leaves a position). About 2 minutes with -j2.
.PHONY: portable-test
A64 := build-aarch64
QEMU_A64 := qemu-aarch64 -L /usr/aarch64-linux-gnu
A64_PERFT_MAX ?= $(PERFT_MAX)
portable-test:
	@sh tools/deps.sh portable
	@$(MAKE) --no-print-directory BUILD=build-portable PORTABLE=1 build-portable/condraughts
	@$(call bench_signature,qemu-x86_64 -cpu qemu64 build-portable/condraughts, (x86-64 PORTABLE=1 on qemu64))
	@$(MAKE) --no-print-directory BUILD=$(A64) CC=aarch64-linux-gnu-gcc PORTABLE=1 NO_WEB=1 NO_TRAIN=1 \
	  MPI_CFLAGS= MPI_LIBS= $(A64)/condraughts $(A64)/test_unit $(A64)/test_pdn $(A64)/test_pdn_read_errors
	printf '#!/bin/sh\nexec $(QEMU_A64) $(abspath $(A64))/condraughts "$$@"\n' > $(A64)/condraughts-qemu
	chmod +x $(A64)/condraughts-qemu
	$(QEMU_A64) $(A64)/test_unit
	$(QEMU_A64) $(A64)/test_pdn tests/pdn
	$(QEMU_A64) $(A64)/test_pdn_read_errors
	sh tests/perft.sh --bin $(A64)/condraughts-qemu --max-nodes $(A64_PERFT_MAX) tests/perft/*.perft
	sh tests/rules.sh --bin $(A64)/condraughts-qemu tests/rules/*.moves
	$(A64)/condraughts-qemu serve 2>&1 | grep 'not built in'
	@$(call bench_signature,$(A64)/condraughts-qemu, (aarch64 PORTABLE=1 NO_WEB=1 NO_TRAIN=1 on qemu-aarch64))

# ---------------------------------------------------------------- Windows (make windows)
# condraughts.exe cross-compiled with Debian's mingw-w64 (build-windows/): the baseline x86-64
# (PORTABLE=1), without serve and train (NO_WEB=1 NO_TRAIN=1), and without study
# (src/compat/win/unported.c); dxp on Winsock (src/compat/win/socket.c), match's engines as
# Windows processes (src/compat/win/proc.c). The weights and the opening books are copied beside
# it ($(WIN)/weights/, $(WIN)/books/: the Windows program looks in its own folder). docs/gui.md:
# the program in the Hub GUI.
.PHONY: windows windows-test
WIN := build-windows
WIN_MAKE = $(MAKE) --no-print-directory BUILD=$(WIN) CC=x86_64-w64-mingw32-gcc PORTABLE=1 NO_WEB=1 \
  NO_TRAIN=1 MPI_CFLAGS= MPI_LIBS=
windows:
	@sh tools/deps.sh windows
	@$(WIN_MAKE) $(WIN)/condraughts.exe $(WIN)/condraughts_cb.dll $(WIN)/cb_loadtest.exe \
	  $(WIN)/test_proc.exe
	@mkdir -p $(WIN)/weights && cp weights/*.cdw $(WIN)/weights/
	@mkdir -p $(WIN)/books && cp books/*.cdb $(WIN)/books/

# windows-test: no DLL but Windows' own (condraughts.exe is linked statically), then the program
# under wine (a prefix of its own in $(WIN)/wine, made at the first run): the perft suites to
# WIN_PERFT_MAX leaves a position, the bench signature, every scripted Hub session of tests/hub/,
# two DXP games of the program against itself over loopback TCP (Winsock), match's engine
# processes (tests/test_proc.c: a write's deadline), matches against its own Hub engine
# (tests/match_windows.sh), the commands left out, and condraughts_cb.dll loaded and
# asked for a move as CheckerBoard does (tests/cb/cb_loadtest.c). $(WIN)/condraughts-wine runs
# the program as the test scripts run the native one (Windows writes CR LF: the CRs are dropped).
WIN_PERFT_MAX ?= 2000000
WINE_ENV = WINEPREFIX=$(abspath $(WIN))/wine WINEDEBUG=-all
windows-test: windows
	@echo 'windows: condraughts.exe loads only system DLLs:' && \
	  x86_64-w64-mingw32-objdump -p $(WIN)/condraughts.exe | sed -n 's/.*DLL Name: //p' | tr '\n' ' ' && \
	  echo && ! x86_64-w64-mingw32-objdump -p $(WIN)/condraughts.exe | sed -n 's/.*DLL Name: //p' | \
	  grep -viE '^(kernel32|msvcrt|ws2_32)\.dll$$'
	printf '#!/bin/bash\nset -o pipefail\n$(WINE_ENV) wine $(abspath $(WIN))/condraughts.exe "$$@" 2> >(stdbuf -o0 tr -d "\\r" >&2) | stdbuf -o0 tr -d "\\r"\n' \
	  > $(WIN)/condraughts-wine
	chmod +x $(WIN)/condraughts-wine
	mkdir -p $(WIN)/wine && $(WINE_ENV) wineserver -p 60
	sh tests/perft.sh --bin $(WIN)/condraughts-wine --max-nodes $(WIN_PERFT_MAX) tests/perft/*.perft
	@$(call bench_signature,$(WIN)/condraughts-wine, (condraughts.exe under wine))
	bash tests/hub.sh --bin $(WIN)/condraughts-wine
	sh tests/dxp.sh --bin $(WIN)/condraughts-wine --loopback-only --games 2
	$(WINE_ENV) wine $(WIN)/test_proc.exe
	sh tests/match_windows.sh --bin $(WIN)/condraughts-wine
	for c in study cbhost; do $(WIN)/condraughts-wine $$c 2>&1 | grep 'not available on Windows' || exit 1; done
	$(WIN)/condraughts-wine match --variant english --engine2 cb:none.so --games 1 2>&1 | \
	  grep 'which the Windows program lacks'
	@echo 'windows: condraughts_cb.dll exports and loads:' && \
	  x86_64-w64-mingw32-objdump -p $(WIN)/condraughts_cb.dll | sed -n 's/.*DLL Name: //p' | tr '\n' ' ' && \
	  echo && ! x86_64-w64-mingw32-objdump -p $(WIN)/condraughts_cb.dll | sed -n 's/.*DLL Name: //p' | \
	  grep -viE '^(kernel32|msvcrt)\.dll$$'
	$(WINE_ENV) wine $(WIN)/cb_loadtest.exe $(WIN)/condraughts_cb.dll
	$(WIN)/condraughts-wine serve 2>&1 | grep 'not built in'
	$(WINE_ENV) wineserver -k

# ---------------------------------------------------------------- tower draughts (src/towers/)
# Unit tests, the perft table tests/perft/towers.counts (counts up to TOWERS_PERFT_MAX leaves)
# and `condraughts towers` end to end; towers-ref-test checks the generator against the
# independent reference tests/ref/towerref.c (random games, perft).
.PHONY: towers-test towers-ref-test
TOWERS_PERFT_MAX ?= 10000000
$(BUILD)/test_towers: tests/test_towers.c tests/check.h src/towers/towers.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Iinclude -Isrc/towers -Itests tests/test_towers.c $(LIB) -o $@

towers-test: $(BUILD)/test_towers $(BIN)
	$(BUILD)/test_towers --perft tests/perft/towers.counts --max-nodes $(TOWERS_PERFT_MAX) --bin $(BIN)

TOWERS_REF_GAMES ?= 1000
$(BUILD)/test_towers_ref: tests/test_towers_ref.c tests/ref/towerref.c tests/ref/towerref.h \
                          tests/check.h src/towers/towers.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -Iinclude -Isrc/towers -Itests -Itests/ref \
	  tests/test_towers_ref.c tests/ref/towerref.c $(LIB) -o $@

towers-ref-test: $(BUILD)/test_towers_ref
	$(BUILD)/test_towers_ref --games $(TOWERS_REF_GAMES) --depth 7

# Header dependencies of every object built so far (-MMD -MP above).
-include $(CORE_OBJ:.o=.d) $(TOWERS_OBJ:.o=.d) $(APP_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(PY_EVAL_OBJ:.o=.d) \
  $(CB_PIC_OBJ:.o=.d)
