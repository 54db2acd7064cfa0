#!/usr/bin/env bash
# Builds the libFuzzer harnesses (ASan + UBSan, in build-fuzz/) and runs one, or each in turn:
#   scripts/fuzz.sh NAME|all [SECONDS] [LIBFUZZER-ARGS...]
# NAME: tl (the .tl parser and emitter), onnx (ONNX loader, validation and importer),
# tensor-file (.npy/.pb readers of tlc-run and the compiler), manifest (tlc-run's reader of
# NAME_manifest: the FlatBuffers verifier, then --describe). SECONDS defaults to 60. Seeds come
# from the tests (and the ONNX backend node tests; the manifests from test/fuzz/seeds, by flatc);
# the corpus grows in build-fuzz/fuzz/corpus/NAME, crashes land in build-fuzz/fuzz/artifacts/NAME,
# logs in build-fuzz/fuzz/logs. Exit status: 0 when every run ended without a finding. Leaks are
# not hunted (LeakSanitizer needs ptrace, which containers often block; it then hangs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TLC_FUZZ_BUILD_DIR:-$root/build-fuzz}
name=${1:?usage: fuzz.sh NAME|all [SECONDS] [LIBFUZZER-ARGS...]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
all=(tl onnx tensor-file manifest)
if [ "$name" = all ]; then
  status=0
  for n in "${all[@]}"; do "$0" "$n" "$seconds" "$@" || status=1; done
  exit $status
fi
case " ${all[*]} " in *" $name "*) ;; *) echo "fuzz.sh: unknown harness '$name' (${all[*]})" >&2; exit 2;; esac

if [ ! -e /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a ]; then
  echo "fuzz.sh: libFuzzer is missing: run scripts/setup.sh (libclang-rt-22-dev)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DLLVM_USE_LINKER=lld \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DTLC_FUZZ=ON -DTLC_LINK_MLIR_DYLIB=ON
fi
ninja -C "$build" -j "${TLC_FUZZ_JOBS:-2}" "fuzz-$name" >/dev/null

fuzz=$build/fuzz
seeds=$fuzz/seeds/$name
if [ ! -d "$seeds" ]; then
  mkdir -p "$seeds.tmp"
  python=/usr/bin/python3
  case $name in
  tl)
    find "$root/examples" "$root/test" -name '*.tl' -exec cp --backup=numbered -t "$seeds.tmp" {} + ;;
  onnx)
    for m in /usr/share/libonnx-testdata/data/node/*/model.onnx; do
      [ -e "$m" ] && cp "$m" "$seeds.tmp/$(basename "$(dirname "$m")").onnx"
    done
    for script in make_model make_malformed; do
      for kind in $(grep -o 'kind == "[^"]*"' "$root/test/onnx/Inputs/$script.py" | cut -d'"' -f2); do
        "$python" "$root/test/onnx/Inputs/$script.py" "$kind" "$seeds.tmp/$script-$kind.onnx" \
          >/dev/null 2>&1 || true
      done
    done ;;
  tensor-file)
    find "$root/test" "$root/examples" -name '*.npy' -exec cp --backup=numbered -t "$seeds.tmp" {} +
    "$python" "$root/test/tlc/Inputs/make_tensor_files.py" "$seeds.tmp/made" >/dev/null 2>&1 || true
    for d in /usr/share/libonnx-testdata/data/node/*/test_data_set_0; do
      [ -e "$d/input_0.pb" ] && cp "$d/input_0.pb" "$seeds.tmp/$(basename "$(dirname "$d")").pb"
    done ;;
  manifest)
    # Manifests of compiled models (CPU, multi-cpu, training, Vulkan) kept as JSON; the flatc
    # that built the fuzzer's header turns them back into size-prefixed binaries.
    flatc --binary --size-prefixed -o "$seeds.tmp" "$root/compiler/manifest/tlc_manifest.fbs" \
      "$root"/test/fuzz/seeds/manifest/*.json ;;
  esac
  mv "$seeds.tmp" "$seeds"
fi

corpus=$fuzz/corpus/$name artifacts=$fuzz/artifacts/$name work=$fuzz/work/$name
mkdir -p "$corpus" "$artifacts/" "$work" "$fuzz/logs"
# The .tl frontend loads .npy files relative to the program: give it the tests' ones.
[ "$name" = tl ] && cp -r "$root/test/tlc/parse/Inputs" "$work/"
log=$fuzz/logs/$name-$(date -u +%Y%m%dT%H%M%S).log
echo "fuzz.sh: fuzz-$name for ${seconds}s, log $log"
cd "$work"
status=0
ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:abort_on_error=1:detect_leaks=0} \
  "$fuzz/fuzz-$name" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" "$corpus" "$seeds" >"$log" 2>&1 ||
  status=$?
grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)|^#[0-9]+ +DONE' "$log" || true
ls "$artifacts" | sed 's/^/finding: /'
if [ $status -ne 0 ]; then
  echo "fuzz.sh: fuzz-$name stopped with a finding (status $status); see $log" >&2
  tail -40 "$log" >&2
fi
exit $status
