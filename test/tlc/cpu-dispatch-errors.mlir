// --cpu lists: each mistake is one clear error and exit status 1, before any compilation.
// RUN: not tlc %s --cpu=x86-64-v3,cortex-a72 -o %t.o 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: tlc: error: --cpu=x86-64-v3,cortex-a72 mixes targets: 'cortex-a72' is a cpu of aarch64, not of x86_64 (one object holds one target's code)

// RUN: not tlc %s --target=aarch64 --cpu=generic,x86-64-v3 -o %t.o 2>&1 | FileCheck %s --check-prefix=MIXED2
// MIXED2: tlc: error: --cpu=generic,x86-64-v3 mixes targets: 'x86-64-v3' is a cpu of x86_64, not of aarch64 (one object holds one target's code)

// RUN: not tlc %s --cpu=x86-64-v3,pentium9 -o %t.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: tlc: error: unknown cpu 'pentium9' for target x86_64
// UNKNOWN-NOT: recognized processor

// RUN: not tlc %s --cpu=x86-64-v3,i686 -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU32
// CPU32: tlc: error: cpu 'i686' is a 32-bit x86 cpu; target x86_64 needs a 64-bit one
// CPU32-NOT: LLVM ERROR

// RUN: not tlc %s --cpu=x86-64-v4,x86-64-v3,x86-64-v4 -o %t.o 2>&1 | FileCheck %s --check-prefix=DUP
// DUP: tlc: error: cpu 'x86-64-v4' appears twice in --cpu=x86-64-v4,x86-64-v3,x86-64-v4

// RUN: not tlc %s --cpu=x86-64-v3, -o %t.o 2>&1 | FileCheck %s --check-prefix=EMPTY
// EMPTY: tlc: error: empty cpu name in --cpu=x86-64-v3,

// A cpu whose extensions the runtime cannot check (here AMD's FMA4, and the FAMINMAX extension
// of Arm's newest cores, which the AArch64 table lacks) cannot be a variant.
// RUN: not tlc %s --cpu=x86-64-v3,bdver2 -o %t.o 2>&1 | FileCheck %s --check-prefix=UNDETECTABLE
// UNDETECTABLE: tlc: error: cpu 'bdver2' enables 'fma4', which the runtime cannot detect, so it cannot be a run-time dispatch variant
// RUN: not tlc %s --target=aarch64 --cpu=generic,olympus -o %t.o 2>&1 | FileCheck %s --check-prefix=UNDETECTABLE-A64
// UNDETECTABLE-A64: tlc: error: cpu 'olympus' enables 'faminmax', which the runtime cannot detect, so it cannot be a run-time dispatch variant

// Nothing is written on error.
// RUN: rm -f %t.none.o && not tlc %s --cpu=x86-64-v3,x86-64-v3 -o %t.none.o 2>/dev/null
// RUN: not test -e %t.none.o

func.func @m(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = tl.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
