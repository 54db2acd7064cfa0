# lit configuration for tlc: tools, substitutions and optional features (qemu, cross compiler).
import os
import shutil

import lit.formats
from lit.llvm import llvm_config

config.name = "tlc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tl", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "runtime", "install"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tlc_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tlc_tools_dir, append_path=True)

python = "/usr/bin/python3"  # Debian's python has numpy; the pyenv one first on PATH does not
runtime_src = os.path.join(config.tlc_source_dir, "runtime", "src")
runtime_include = os.path.join(config.tlc_source_dir, "runtime", "include")
# Config substitutions apply before lit's own, so %tlc is not read as %t + "lc".
config.substitutions.append(("%tlc_run", os.path.join(config.tlc_tools_dir, "tlc-run")))
config.substitutions.append(("%tlc_opt", os.path.join(config.tlc_tools_dir, "tlc-opt")))
config.substitutions.append(("%tlc", os.path.join(config.tlc_tools_dir, "tlc")))
config.substitutions.append(("%python", python))
config.substitutions.append(("%e2e_dir", os.path.join(config.tlc_source_dir, "test", "e2e")))
config.substitutions.append(("%examples", os.path.join(config.tlc_source_dir, "examples")))
config.substitutions.append(("%runtime_src", runtime_src))
config.substitutions.append(("%runtime_include", runtime_include))
config.substitutions.append(("%runtime_lib", config.tlc_runtime_lib))
if config.tlc_sanitize:
    # libtlcrt.a is instrumented, so whatever links it is too (the e2e harnesses, the demos).
    # Leaks are not checked: MLIR's and LLVM's tools leave their globals to the exit.
    config.available_features.add("sanitize")
    config.substitutions.append(("%cc", "clang-22 -fsanitize=address,undefined "
                                 "-fno-sanitize-recover=all -O2 -I" + runtime_include))
    # allow_user_poisoning=0: see scripts/test-sanitized.sh.
    config.environment["ASAN_OPTIONS"] = "allow_user_poisoning=0:detect_leaks=0:abort_on_error=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
else:
    config.substitutions.append(("%cc", "cc -O2 -I" + runtime_include))

if config.tlc_static_llvm:
    config.available_features.add("static-llvm")

tools = ["tlc", "tlc-opt", "tlc-parse", "tlc-run", "llvm-objcopy"]
llvm_config.add_tool_substitutions(tools, [config.tlc_tools_dir, config.llvm_tools_dir])

if shutil.which("qemu-aarch64"):
    config.available_features.add("qemu-aarch64")
if shutil.which("aarch64-linux-gnu-gcc"):
    config.available_features.add("aarch64-cc")

# ONNX tests: the python onnx package (fixtures), the backend node test data, PyTorch (models).
import subprocess
def python_has(module):
    return subprocess.run([python, "-c", "import " + module], capture_output=True).returncode == 0
if python_has("onnx"):
    config.available_features.add("python-onnx")
if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
    config.available_features.add("onnx-testdata")
if python_has("torch") and python_has("torchvision") and python_has("onnx"):
    config.available_features.add("torch")
# ONNX Runtime (the npm package scripts/setup.sh installs) as a numerical reference.
ort_dir = os.path.join(config.tlc_source_dir, "benchmarks", "peers", "ort")
if shutil.which("node") and os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
    config.available_features.add("onnxruntime")
config.substitutions.append(("%ort_run", "node " + os.path.join(ort_dir, "ort_run.js")))

# The host's x86 instruction set levels (from the kernel's /proc/cpuinfo, independently of the
# runtime's cpuid code), for tests that run code compiled for them.
try:
    with open("/proc/cpuinfo") as f:
        cpu_flags = set(next((l for l in f if l.startswith("flags")), ":").split(":", 1)[1].split())
except OSError:
    cpu_flags = set()
# (x86-64-v3 also includes LZCNT, which Linux lists as "abm"; some VMs' kernels omit that name
# while cpuid has the bit, e.g. a Zen 5 Firecracker guest, and tlc's code does not depend on
# it, so it is not required here.)
if {"avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "movbe"} <= cpu_flags:
    config.available_features.add("cpu-x86-64-v3")
    if {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"} <= cpu_flags:
        config.available_features.add("cpu-x86-64-v4")
if "avx512_fp16" in cpu_flags:
    config.available_features.add("cpu-avx512fp16")
if "avx512_bf16" in cpu_flags:
    config.available_features.add("cpu-avx512bf16")
if "avx512_vnni" in cpu_flags:
    config.available_features.add("cpu-avx512vnni")

# GPU targets. The CUDA toolkit's ptxas (when present) checks the PTX tests emit; without it
# those tests report UNSUPPORTED. Vulkan runs on Mesa's lavapipe, which scripts/setup.sh
# installs: the Vulkan tests have no feature guard, so a machine without it fails them.
cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH") or "/usr/local/cuda"
ptxas = shutil.which("ptxas") or (os.path.join(cuda_home, "bin", "ptxas")
                                  if os.path.exists(os.path.join(cuda_home, "bin", "ptxas"))
                                  else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
if shutil.which("spirv-val"):
    config.available_features.add("spirv-val")
# --target=metal (SPIRV-Cross found at configure time). Apple's Metal compiler is never here: the
# tests parse the MSL as C++ against a stub header (%msl_stub), which checks its structure only.
if config.tlc_metal_target:
    config.available_features.add("metal-target")
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%msl_stub", os.path.join(config.tlc_source_dir, "test", "gpu",
                                                       "Inputs", "msl-stub")))
