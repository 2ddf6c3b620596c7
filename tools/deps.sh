#!/bin/sh
# Installs the Debian packages condraughts needs and this machine lacks.
# Usage: tools/deps.sh [build|test|portable|windows]   (build: compile and serve; test: also the
# test tools; portable: build and the cross compiler and emulator of `make portable-test`;
# windows: only the mingw-w64 cross compiler and wine of `make windows` and `make windows-test`)
set -eu
profile=${1:-build}
need=""
command -v make >/dev/null 2>&1 || need="$need make"
if [ "$profile" = test ] || [ "$profile" = windows ]; then
    command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need="$need gcc-mingw-w64-x86-64"
    command -v wine >/dev/null 2>&1 || need="$need wine64"
fi
if [ "$profile" != windows ]; then
    command -v gcc >/dev/null 2>&1 || need="$need gcc"
    [ -f /usr/include/microhttpd.h ] || need="$need libmicrohttpd-dev"
    [ -f /usr/include/cjson/cJSON.h ] || need="$need libcjson-dev"
    [ -f /usr/include/sqlite3.h ] || need="$need libsqlite3-dev"
    # serve --db postgresql://...: games between people shared by several servers (store_pg.c)
    [ -f /usr/include/postgresql/libpq-fe.h ] || need="$need libpq-dev"
    [ -f /usr/include/sodium.h ] || need="$need libsodium-dev"
    # players' names: Unicode NFKC and the confusable skeleton of TR39 (src/web/names.c)
    [ -f /usr/include/unicode/uspoof.h ] || need="$need libicu-dev"
    # the trainer's game corpus (xz)
    [ -f /usr/include/lzma.h ] || need="$need liblzma-dev"
    # condraughts study: Open MPI to share games out over processes (mpicc to build, mpirun to run),
    # gnuplot for the report's plots
    command -v mpicc >/dev/null 2>&1 || need="$need openmpi-bin libopenmpi-dev"
    command -v gnuplot >/dev/null 2>&1 || need="$need gnuplot-nox"
fi
if [ "$profile" = test ] || [ "$profile" = portable ]; then
    # make portable-test: the aarch64 cross build, run under qemu-user (qemu-aarch64, and
    # qemu-x86_64 for the baseline x86-64 build)
    command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
    command -v qemu-aarch64 >/dev/null 2>&1 || need="$need qemu-user"
fi
if [ "$profile" = test ]; then
    command -v clang >/dev/null 2>&1 || need="$need clang"
    command -v curl >/dev/null 2>&1 || need="$need curl"
    command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config" # make install-test, deb-test
    command -v sqlite3 >/dev/null 2>&1 || need="$need sqlite3" # tests/play.sh ages ratings
    # make pg-test: a private PostgreSQL cluster (initdb, pg_ctl) and nginx in front of two servers
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need="$need postgresql"
    [ -x /usr/sbin/nginx ] || need="$need nginx"
    # make backup-test: systemd-analyze verify on docs/deploy/condraughts@.service
    command -v systemd-analyze >/dev/null 2>&1 || need="$need systemd"
    command -v node >/dev/null 2>&1 || need="$need nodejs npm"
    command -v python3 >/dev/null 2>&1 || need="$need python3" # hub-pydraughts, when it can
    # make python-test: the module's build needs Debian's interpreter and its headers
    ls /usr/include/python3*/Python.h >/dev/null 2>&1 || need="$need python3-dev"
    [ -x /usr/bin/chromium ] || need="$need chromium"
    # hostile-input checks: libFuzzer runtime (make fuzz), wrk (make load-test), valgrind
    ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-"$(uname -m)".a >/dev/null 2>&1 ||
        need="$need libclang-rt-14-dev"
    command -v wrk >/dev/null 2>&1 || need="$need wrk"
    command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
fi
[ -z "$need" ] && exit 0
echo "condraughts: installing$need"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q && $sudo apt-get install -y -q $need
