// Driver errors: each is a located (or tool-prefixed) message and exit status 1, never a crash.
// RUN: not tlc %s --target=riscv -o %t.o 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: tlc: error: unknown target 'riscv' (available: x86_64 aarch64 cuda vulkan{{( metal)?}})

// RUN: not tlc %s --cpu=pentium9 -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: tlc: error: unknown cpu 'pentium9' for target x86_64
// CPU-NOT: recognized processor

// A 32-bit x86 cpu is known to LLVM, which stops with a fatal error when asked for 64-bit code.
// RUN: not tlc %s --cpu=pentium -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU32
// CPU32: tlc: error: cpu 'pentium' is a 32-bit x86 cpu; target x86_64 needs a 64-bit one
// CPU32-NOT: LLVM ERROR

// RUN: not tlc %s --target=aarch64 --cpu=znver4 -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU2
// CPU2: tlc: error: unknown cpu 'znver4' for target aarch64

// RUN: not tlc %s 2>&1 | FileCheck %s --check-prefix=NOOUT
// NOOUT: tlc: error: an object file needs an output path (-o FILE)

// RUN: not tlc %s --emit=asm --shared -o %t.s 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: tlc: error: --shared only applies to --emit=obj

// RUN: not tlc %s --name=2bad -o %t.o 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: tlc: error: model name '2bad' is not a valid C identifier (use --name)

// RUN: not tlc %S/does-not-exist.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: does-not-exist.mlir: error: cannot open '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: cp %s %t.onnx.txt && not tlc %t.onnx.txt -o %t.o 2>&1 | FileCheck %s --check-prefix=EXT
// EXT: error: unknown input kind '.txt': expected a .tl einsum graph, an .onnx model or a .mlir module

// RUN: not tlc --emit=bogus %s 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: Cannot find option named 'bogus'

// RUN: not tlc --einsum-path=fastest %s -o %t.o 2>&1 | FileCheck %s --check-prefix=EPATH
// EPATH: tlc: for the --einsum-path option: Cannot find option named 'fastest'!

func.func @m(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tl.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// RUN: not tlc %s --target=aarch64 --shared -o %t.so 2>&1 | FileCheck %s --check-prefix=SHAREDX
// SHAREDX: error: --shared links the host's runtime; for --target=aarch64 link the object with that target's toolchain instead
// RUN: env TLC_RUNTIME_LIB=%t.missing.a not tlc %s --shared -o %t.so 2>&1 | FileCheck %s --check-prefix=NORT
// NORT: error: linking the shared library failed
