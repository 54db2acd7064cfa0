#!/usr/bin/env bash
# The CUDA check for a machine with an NVIDIA GPU and driver, in two halves: `prepare` where tlc
# is built (compiles the suite for CUDA, links the harnesses, saves float64 references), `run` on
# the GPU machine (needs only cc's output, python3 with numpy; torch for the peer timings).
#
#   test/gpu/cuda-check.sh prepare build/cuda-check     (here: ~35 MB)
#   test/gpu/cuda-check.sh run build/cuda-check         (there: writes build/cuda-check/cuda-check.log)
#
# With the device tool: run `prepare` here, then one `run` call carrying build/cuda-check (an
# ignored path, under the 64 MiB carry limit) whose command is the `run` line and copies the
# log to $OUT.
#
# The PTX is tlc's default (sm_80, PTX ISA 7.0), which the driver JIT-compiles for newer GPUs.
#
# The suite: the three examples, four e2e models, 40 seeded random graphs (the Vulkan suite's),
# four ONNX models against PyTorch's outputs (tlc-run), matmuls of 1024, 1290, 2048 and 4096
# and attention at 1024 and 4096 (inputs generated there, outputs sampled against float64),
# and a timed causal attention row (test/gpu/Inputs/attention512.tl), each against PyTorch
# (torch_peer.py). TARGET=vulkan runs the same flow on lavapipe (how it is tested here).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
e2e="$root/test/e2e"
target=${TARGET:-cuda}
cmd=${1:?usage: cuda-check.sh prepare|run|prepare-models|run-models DIR}
dir=${2:?usage: cuda-check.sh prepare|run|prepare-models|run-models DIR}
shift 2
mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
# A python3 with numpy: Debian's here (the first on PATH may lack it), the PATH one there.
py=python3
for p in "${PYTHON:-}" /usr/bin/python3 python3; do
  if [ -n "$p" ] && "$p" -c 'import numpy' 2> /dev/null; then py=$p; break; fi
done

tlc=${TLC:-$root/build/bin/tlc}

# Exports export_models.py's NAMEs (PyTorch models, random weights) into OUT and compiles each
# to OUT/NAME.so (TLC_FLAGS: more tlc flags); tlc-run travels with the two shared libraries it
# needs beyond libc/libstdc++ (the GPU machine has no Debian packages). TIMING_ONLY=1 leaves out
# the inputs and expected outputs, rounds the weights to multiples of 1/64 and gzips each
# object (resnet18 at batch 32 then travels in ~12 MB instead of 77); run_models unpacks them.
prepare_models() {
  local out=$1 m
  shift
  mkdir -p "$out"
  local coarse=()
  if [ "${TIMING_ONLY:-0}" = 1 ]; then coarse=(--compressible); fi
  "$py" "$root/test/onnx/models/export_models.py" --out "$out" --size 224 "${coarse[@]}" "$@" \
    > /dev/null 2>&1
  for m in "$@"; do
    "$tlc" "$out/$m.onnx" --target "$target" --shared ${TLC_FLAGS:-} -o "$out/$m.so"
    rm "$out/$m.onnx"
    if [ "${TIMING_ONLY:-0}" = 1 ]; then
      rm -f "$out/$m.input.npy" "$out/$m.expected.npy"
      gzip -f "$out/$m.so"
    fi
  done
  cp "${TLC_RUN:-$root/build/bin/tlc-run}" "$out/"
  ldd "$out/tlc-run" | awk '/onnx_proto|protobuf/ {print $3}' | xargs -r cp -t "$out/"
}

# Runs each OUT/NAME.so with tlc-run, median of 20: against its expected output where there is
# one (max error / max magnitude <= 1e-4), else on seeded random inputs, checking nothing.
run_models() {
  local out=$1 so m
  for so in "$out"/*.so.gz; do [ -e "$so" ] && gzip -d -f "$so"; done
  for so in "$out"/*.so; do
    m=$(basename "$so" .so)
    if [ -f "$out/$m.expected.npy" ]; then
      LD_LIBRARY_PATH="$out" "$out/tlc-run" "$so" --input "$out/$m.input.npy" \
        --expect "$out/$m.expected.npy" --max-rel 1e-4 --warmup 3 --repeat 20 || echo "FAIL model $m"
    else
      echo "(timing only: seeded random inputs, nothing checked)"
      LD_LIBRARY_PATH="$out" "$out/tlc-run" "$so" --seed 1 --warmup 3 --repeat 20 || echo "FAIL model $m"
    fi
  done
}

# mobilenet_v2 (14 MB of weights) fits the device tool's 64 MiB carry limit; resnet18 does not.
models=(transformer transformer_b32 gpt2_block mobilenet_v2)
# The matmul rows (BIG_SIZES="512" for a quick try on lavapipe). 1290 takes 128 x 128
# tiles with partial ones at both edges (test/gpu/Inputs/tiled_contractions.tl checks more
# shapes on lavapipe; its float64 references would not fit the carry limit).
read -r -a big_sizes <<< "${BIG_SIZES:-1024 1290 2048 4096}"
# The long attention rows (ATTENTION_SEQS="128" on lavapipe).
read -r -a attention_seqs <<< "${ATTENTION_SEQS:-1024 4096}"

case "$cmd" in
prepare)
  rm -rf "$dir" && mkdir -p "$dir/random"
  "$py" "$e2e/gen_random_graphs.py" --seed 1000 --count 40 --out "$dir/random" > /dev/null
  common=(--target "$target" --tlc "$tlc" --runtime-src "$root/runtime/src"
          --include "$root/runtime/include" --prepare-only)
  "$py" "$e2e/run_e2e.py" "${common[@]}" --keep "$dir/suite" \
    "$root/examples/mlp.tl" "$root/examples/attention.tl" "$root/examples/tensor_network.tl" \
    "$e2e/Inputs/activations.tl" "$e2e/Inputs/epilogues.tl" "$e2e/Inputs/attention_small.tl" \
    "$e2e/Inputs/zero_copy_outputs.tl" "$root/test/gpu/Inputs/reductions.tl" "$dir"/random/*.tl
  "$py" "$e2e/run_e2e.py" "${common[@]}" --keep "$dir/bench" "$root/test/gpu/Inputs/attention512.tl"
  # Large matmuls: inputs generated and outputs sampled on the GPU machine (bench_matmul.c).
  mkdir -p "$dir/big"
  for n in "${big_sizes[@]}"; do
    printf 'input a : f32[%d, %d]\ninput b : f32[%d, %d]\noutput c = einsum("ij,jk->ik", a, b)\n' \
      "$n" "$n" "$n" "$n" > "$dir/big/matmul$n.tl"
    "$tlc" "$dir/big/matmul$n.tl" --target "$target" -o "$dir/big/matmul$n.o"
    cc -O2 -DPROGRAM="matmul${n}_program" -I "$root/runtime/include" "$root/test/gpu/bench_matmul.c" \
      "$dir/big/matmul$n.o" "${TLC_RUNTIME_LIB:-$root/build/runtime/libtlcrt.a}" \
      -o "$dir/big/bench$n" -lm -lpthread -ldl
  done
  # Long attention (batch 4, 8 heads, head dim 64): inputs generated, rows sampled there.
  for s in "${attention_seqs[@]}"; do
    printf 'input q : f32[4, 8, %d, 64]\ninput k : f32[4, 8, %d, 64]\ninput v : f32[4, 8, %d, 64]\noutput o = attention(q, k, v)\n' \
      "$s" "$s" "$s" > "$dir/big/attention$s.tl"
    "$tlc" "$dir/big/attention$s.tl" --target "$target" -o "$dir/big/attention$s.o"
    cc -O2 -DPROGRAM="attention${s}_program" -I "$root/runtime/include" \
      "$root/test/gpu/bench_attention.c" "$dir/big/attention$s.o" \
      "${TLC_RUNTIME_LIB:-$root/build/runtime/libtlcrt.a}" -o "$dir/big/bench_attention$s" -lm -lpthread -ldl
  done
  prepare_models "$dir/models" "${models[@]}"
  echo "cuda-check: prepared $dir for --target=$target"
  ;;
run)
  log="$dir/cuda-check.log"
  {
    echo "== cuda-check $(date -u +%FT%TZ) target=$target"
    command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv
    echo "== e2e suite against float64 references"
    "$py" "$e2e/run_e2e.py" --run-prepared "$dir/suite" || true
    echo "== timed rows (tlc device time, median of 20)"
    TLC_E2E_TIME=20 "$py" "$e2e/run_e2e.py" --run-prepared "$dir/bench" || true
    echo "== large matmuls (random inputs, 256 sampled outputs against float64)"
    for n in "${big_sizes[@]}"; do
      "$dir/big/bench$n" "matmul$n" "$n" "$n" "$n" "$target" 20 || echo "FAIL matmul$n"
    done
    echo "== long attention, batch 4 x 8 heads x head dim 64 (64 sampled rows against float64)"
    for s in "${attention_seqs[@]}"; do
      "$dir/big/bench_attention$s" "attention$s" 4 8 "$s" 64 "$target" 20 || echo "FAIL attention$s"
    done
    echo "== ONNX models against PyTorch (max error / max magnitude <= 1e-4), median of 20"
    run_models "$dir/models"
    echo "== peers"
    if [ "$target" = cuda ]; then "$py" "$root/test/gpu/torch_peer.py" || true; fi
  } 2>&1 | tee "$log"
  grep -q "^FAIL" "$log" && exit 1
  exit 0
  ;;
prepare-models)
  # Models too large to carry beside the suite (resnet18's 47 MB of weights), on their own:
  # `prepare-models DIR NAME...` (export_models.py names). TIMING_ONLY=1 leaves out the input
  # and expected output (resnet18 at batch 32: they would not fit either); the run then times
  # the model on seeded random inputs and checks nothing. resnet18's convolutions alone, with
  # their BatchNorm and ReLU: resnet_conv1_b32, resnet_layer1_b32 ... resnet_layer4_b32.
  [ $# -gt 0 ] || { echo "usage: cuda-check.sh prepare-models DIR NAME..." >&2; exit 2; }
  rm -rf "$dir"
  prepare_models "$dir" "$@"
  echo "cuda-check: prepared $* in $dir for --target=$target"
  ;;
run-models)
  log="$dir/cuda-check-models.log"
  names=()
  for so in "$dir"/*.so; do names+=("$(basename "$so" .so)"); done
  {
    echo "== cuda-check models $(date -u +%FT%TZ) target=$target"
    run_models "$dir"
    # PEER_MODELS: the peer's models when they are not all here (one carried beside the suite).
    read -r -a peers <<< "${PEER_MODELS:-${names[*]}}"
    if [ "$target" = cuda ]; then "$py" "$root/test/gpu/torch_peer.py" "${peers[@]}" || true; fi
    # PROFILE_MODELS: models whose kernels to time one by one (tlc-run --profile).
    for m in ${PROFILE_MODELS:-}; do
      echo "== tlc-run --profile $m"
      LD_LIBRARY_PATH="$dir" "$dir/tlc-run" "$dir/$m.so" --seed 1 --warmup 3 --repeat 10 --profile ||
        echo "FAIL profile $m"
    done
  } 2>&1 | tee "$log"
  grep -q "^FAIL" "$log" && exit 1
  exit 0
  ;;
*)
  echo "usage: cuda-check.sh prepare|run|prepare-models|run-models DIR" >&2
  exit 2
  ;;
esac
