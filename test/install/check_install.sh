#!/usr/bin/env bash
# Installs a tlc build into a scratch prefix and builds/runs examples/cmake-app against it.
#
# usage: check_install.sh BUILD_DIR
# env:   CMAKE (default: cmake), CC (default: the C compiler BUILD_DIR was configured with),
#        TLC_KEEP_INSTALL_CHECK=1 keeps the scratch directory for inspection.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
fi
build_dir=$(cd "$1" && pwd)
src_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
example_dir="$src_dir/examples/cmake-app"
cmake_bin=${CMAKE:-cmake}

if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  echo "check_install: $build_dir is not a configured CMake build directory" >&2
  exit 2
fi

# Build the app with the compiler the project itself was built with, unless told otherwise.
if [ -z "${CC:-}" ]; then
  CC=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/tlc-install-check.XXXXXX")
if [ "${TLC_KEEP_INSTALL_CHECK:-0}" = 1 ]; then
  echo "check_install: keeping $scratch"
else
  trap 'rm -rf "$scratch"' EXIT
fi
prefix="$scratch/prefix"
app_build="$scratch/app-build"

step() { echo "check_install: $*"; }

step "installing $build_dir into $prefix"
"$cmake_bin" --install "$build_dir" --prefix "$prefix"

# What the package promises, checked by path so a missing piece is named, not inferred.
missing=0
for f in bin/tlc include/tlc/runtime.h; do
  [ -e "$prefix/$f" ] || { echo "check_install: missing $prefix/$f" >&2; missing=1; }
done
for f in libtlcrt.a cmake/tlc/tlcConfig.cmake cmake/tlc/tlcConfigVersion.cmake \
         cmake/tlc/tlcTargets.cmake cmake/tlc/tlcAddModel.cmake; do
  # GNUInstallDirs may pick lib or lib64 (or a multiarch dir).
  if ! compgen -G "$prefix/lib*/$f" >/dev/null && ! compgen -G "$prefix/lib/*/$f" >/dev/null; then
    echo "check_install: missing $prefix/lib*/$f" >&2
    missing=1
  fi
done
[ "$missing" = 0 ] || exit 1

# A copy, so the example's source tree stays clean and the check sees only what is committed.
cp -R "$example_dir" "$scratch/app-src"

step "configuring examples/cmake-app against $prefix"
"$cmake_bin" -G Ninja -S "$scratch/app-src" -B "$app_build" \
  -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON

# The package must have come from the scratch prefix, not from some other installed tlc.
found_dir=$(sed -n 's/^tlc_DIR:PATH=//p' "$app_build/CMakeCache.txt")
case "$found_dir" in
  "$prefix"/*) ;;
  *) echo "check_install: find_package(tlc) used '$found_dir', not $prefix" >&2; exit 1 ;;
esac

step "building"
"$cmake_bin" --build "$app_build" --verbose

step "running"
output=$("$app_build/app") || { echo "$output"; echo "check_install: app failed" >&2; exit 1; }
echo "$output"
if ! grep -q '^PASS' <<<"$output"; then
  echo "check_install: app did not print PASS" >&2
  exit 1
fi

# Editing the model must recompile it (the custom command DEPENDS on the source).
step "checking that a model edit triggers a rebuild"
touch "$scratch/app-src/model.tl"
rebuild=$("$cmake_bin" --build "$app_build" --verbose)
echo "$rebuild"
if ! grep -q -e '--name model' <<<"$rebuild"; then
  echo "check_install: touching model.tl did not recompile the model" >&2
  exit 1
fi
step "PASS"
