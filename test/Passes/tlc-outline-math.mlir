// RUN: tlc-opt %s -split-input-file -tlc-outline-math=max-inline=2 | FileCheck %s

// Three tanh in one block, more than max-inline: each calls one shared copy, which neither
// MLIR nor LLVM (passthrough noinline) inlines; the exp stays with them in the count and
// gets its own function. Ops that expand to one instruction (sqrt) stay.
// CHECK-LABEL: func.func @many
// CHECK-SAME: (%[[A:.+]]: vector<8xf32>)
// CHECK: %[[T0:.+]] = call @tlc_math_tanh(%[[A]]) : (vector<8xf32>) -> vector<8xf32>
// CHECK: %[[T1:.+]] = call @tlc_math_tanh(%[[T0]])
// CHECK: %[[E:.+]] = call @tlc_math_exp(%[[T1]])
// CHECK: %[[T2:.+]] = call @tlc_math_tanh(%[[E]])
// CHECK: %[[S:.+]] = math.sqrt %[[T2]]
// CHECK: return %[[S]]
// CHECK-NOT: math.tanh
// CHECK-LABEL: func.func private @tlc_math_tanh
// CHECK-SAME: (%[[X:.+]]: vector<8xf32>) -> vector<8xf32>
// CHECK-SAME: attributes {no_inline, passthrough = ["noinline"]}
// CHECK-NEXT: %[[R:.+]] = math.tanh %[[X]] : vector<8xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-LABEL: func.func private @tlc_math_exp
// CHECK-NEXT: math.exp
func.func @many(%a: vector<8xf32>) -> vector<8xf32> {
  %0 = math.tanh %a : vector<8xf32>
  %1 = math.tanh %0 : vector<8xf32>
  %2 = math.exp %1 : vector<8xf32>
  %3 = math.tanh %2 : vector<8xf32>
  %4 = math.sqrt %3 : vector<8xf32>
  return %4 : vector<8xf32>
}

// -----

// Two in a block (not more than max-inline), with two more in a nested loop body that counts
// for itself: nothing changes.
// CHECK-LABEL: func.func @few
// CHECK-NOT: call
// CHECK-COUNT-4: math.tanh
// CHECK-NOT: func.func private
func.func @few(%a: vector<8xf32>, %m: memref<8xvector<8xf32>>) -> vector<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %0 = math.tanh %a : vector<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %m[%i] : memref<8xvector<8xf32>>
    %t = math.tanh %v : vector<8xf32>
    %u = math.tanh %t : vector<8xf32>
    memref.store %u, %m[%i] : memref<8xvector<8xf32>>
  }
  %1 = math.tanh %0 : vector<8xf32>
  return %1 : vector<8xf32>
}

// -----

// One function per op name, attributes and types: exp of another width, and exp with
// fastmath flags, get their own; a name taken already is not reused.
// CHECK-LABEL: func.func private @tlc_math_exp(
// CHECK-NEXT: return
// CHECK-LABEL: func.func @variants
// CHECK: call @tlc_math_exp_0(%{{.+}}) : (vector<8xf32>) -> vector<8xf32>
// CHECK: call @tlc_math_exp_1(%{{.+}}) : (vector<16xf32>) -> vector<16xf32>
// CHECK: call @tlc_math_exp_2(%{{.+}}) : (vector<8xf32>) -> vector<8xf32>
// CHECK: call @tlc_math_exp_0(%{{.+}}) : (vector<8xf32>) -> vector<8xf32>
// CHECK-LABEL: func.func private @tlc_math_exp_0(
// CHECK-NEXT: math.exp %{{.+}} : vector<8xf32>
// CHECK-LABEL: func.func private @tlc_math_exp_1(
// CHECK-NEXT: math.exp %{{.+}} : vector<16xf32>
// CHECK-LABEL: func.func private @tlc_math_exp_2(
// CHECK-NEXT: math.exp %{{.+}} fastmath<afn> : vector<8xf32>
func.func private @tlc_math_exp(%x: f32) -> f32 {
  return %x : f32
}
func.func @variants(%a: vector<8xf32>, %b: vector<16xf32>) -> (vector<8xf32>, vector<16xf32>) {
  %0 = math.exp %a : vector<8xf32>
  %1 = math.exp %b : vector<16xf32>
  %2 = math.exp %0 fastmath<afn> : vector<8xf32>
  %3 = math.exp %2 : vector<8xf32>
  return %3, %1 : vector<8xf32>, vector<16xf32>
}
