// RUN: tlc-opt %s -split-input-file -tl-lower-to-linalg | FileCheck %s

// Softmax over the last axis: the input viewed as [130, 10] rows, an scf.forall over 44 chunks
// of at most 3 rows (the last one shorter), per row a max reduction (maxnumf: NaN-ignoring, a
// NaN still reaches every output through exp(x - max)), one pass writing exp(x - max) into the
// output row and summing it (a reduction with a per-column output beside the 0-D sum), and the
// row scaled in place by 1 / sum. The exp is marked
// tlc.nonpositive_arg (x - max <= 0), so tlc-approximate-math drops its overflow clamp. The exp
// pass (compute-bound, the first to write the output row) is marked tlc.prefetch_next_row, the
// max pass (which reads the row from memory) and the scale pass (in L1) are not.
// CHECK-LABEL: func.func @softmax_rows
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [130, 10]
// CHECK: scf.forall (%[[C:.+]]) in (44) shared_outs(%[[OUT:.+]] = %{{.+}}) -> (tensor<130x10xf32>)
// CHECK: %[[SIZE:.+]] = arith.minsi
// CHECK: %[[CHUNK:.+]] = tensor.extract_slice %[[OUT]][%{{.+}}, 0] [%[[SIZE]], 10] [1, 1]
// CHECK: %[[MAXE:.+]] = tensor.empty() : tensor<f32>
// CHECK: %[[SUME:.+]] = tensor.empty() : tensor<f32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[SIZE]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[CHUNK]])
// CHECK: %[[ROW:.+]] = tensor.extract_slice %{{.+}} : tensor<130x10xf32> to tensor<10xf32>
// CHECK: %[[OROW:.+]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [1, 10] [1, 1]
// CHECK: %[[MAXI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[MAXE]] : tensor<f32>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]] : tensor<10xf32>) outs(%[[MAXI]] : tensor<f32>) {
// CHECK: arith.maxnumf
// CHECK-NOT: arith.maximumf
// CHECK: %[[SUMI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[SUME]] : tensor<f32>)
// CHECK: %[[EXP:.+]]:2 = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[MAX]] : tensor<10xf32>, tensor<f32>) outs(%[[OROW]], %[[SUMI]] : tensor<10xf32>, tensor<f32>) attrs = {tlc.prefetch_next_row} {
// CHECK: ^bb0(%{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32, %[[S:.+]]: f32):
// CHECK: %[[D:.+]] = arith.subf
// CHECK: %[[E:.+]] = math.exp %[[D]] {tlc.nonpositive_arg} : f32
// CHECK: %[[NS:.+]] = arith.addf %[[S]], %[[E]] : f32
// CHECK: linalg.yield %[[E]], %[[NS]] : f32, f32
// CHECK: %[[SCALED:.+]] = linalg.generic {{.+}} ins(%[[EXP]]#1 : tensor<f32>) outs(%[[EXP]]#0 : tensor<10xf32>) {
// CHECK: arith.divf
// CHECK: arith.mulf
// CHECK: tensor.insert_slice %[[SCALED]] into %[[ACC]][%[[I]], 0] [1, 10] [1, 1]
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[OUT]][%{{.+}}, 0] [%[[SIZE]], 10] [1, 1]
func.func @softmax_rows(%x: tensor<2x65x10xf32>) -> tensor<2x65x10xf32> {
  %0 = tl.softmax %x axis = -1 : tensor<2x65x10xf32>
  return %0 : tensor<2x65x10xf32>
}

// -----

// f32 softmax with 8 rows per chunk: one walk per row, software-pipelined two rows deep. The
// chunk's first row: its maximum, -max into its own 0-D tensor, then one pass computing its
// exponentials into a scratch row, summing them and taking the next row's maximum (row + 1
// clamped to the last row). The loop over rows 1..7 carries the chunk, the scratch, the
// maximum and the sum; per row -max and 1 / sum_prev into their own 0-D tensors, the carried
// sum and maximum refilled in place, and one pass that writes exp(x + -max) into the scratch
// (its current element, the previous row's exponential, read first), the previous output row
// as that times 1 / sum_prev, the sum and the next maximum; the previous row is inserted at
// i - 1. After the loop the last row is written from the scratch. No separate max or
// scaling pass in the loop.
// CHECK-LABEL: func.func @softmax_pipelined
// CHECK: scf.forall (%{{.+}}) in (64)
// CHECK: %[[FIRST:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW0:.+]] : tensor<16xf32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: arith.maxnumf
// CHECK: %[[NEG0:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[FIRST]] : tensor<f32>)
// CHECK: arith.negf
// CHECK: %[[NEXT0:.+]] = tensor.extract_slice
// CHECK: %[[SCRATCH:.+]] = tensor.empty() : tensor<16xf32>
// CHECK: %[[M0:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[FIRST]] : tensor<f32>)
// CHECK: %[[P0:.+]]:3 = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW0]], %[[NEXT0]], %[[NEG0]] : {{.+}}) outs(%[[SCRATCH]], %{{.+}}, %[[M0]] : tensor<16xf32>, tensor<f32>, tensor<f32>) attrs = {tlc.prefetch_next_row} {
// CHECK: math.exp %{{.+}} {tlc.nonpositive_arg} : f32
// CHECK: %[[LOOP:.+]]:4 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[EXPS:[^ ]+]] = %[[P0]]#0, %[[CMAX:[^ ]+]] = %[[P0]]#2, %[[CSUM:[^ ]+]] = %[[P0]]#1) -> (tensor<8x16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>)
// CHECK: %[[ROW:.+]] = tensor.extract_slice
// CHECK: %[[NEXT:.+]] = tensor.extract_slice
// CHECK: %[[PREV:.+]] = arith.subi %[[I]], %{{.+}} : index
// CHECK: %[[NEG:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[CMAX]] : tensor<f32>)
// CHECK: %[[INV:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[CSUM]] : tensor<f32>)
// CHECK: arith.divf
// CHECK: %[[SUMI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[CSUM]] : tensor<f32>)
// CHECK: %[[MAXI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[CMAX]] : tensor<f32>)
// CHECK: %[[P:.+]]:4 = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[NEXT]], %[[NEG]], %[[INV]] : {{.+}}) outs(%[[EXPS]], %{{.+}}, %[[SUMI]], %[[MAXI]] : tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>) attrs = {tlc.prefetch_next_row} {
// CHECK: ^bb0(%[[X:[^:]+]]: f32, %[[XN:[^:]+]]: f32, %[[NM:[^:]+]]: f32, %[[IV:[^:]+]]: f32, %[[EP:[^:]+]]: f32, %{{.+}}: f32, %[[S:[^:]+]]: f32, %[[M:[^:]+]]: f32):
// CHECK: %[[D:.+]] = arith.addf %[[X]], %[[NM]]
// CHECK: %[[E:.+]] = math.exp %[[D]] {tlc.nonpositive_arg} : f32
// CHECK: %[[SC:.+]] = arith.mulf %[[EP]], %[[IV]]
// CHECK: %[[NS:.+]] = arith.addf %[[S]], %[[E]]
// CHECK: %[[NMX:.+]] = arith.maxnumf %[[M]], %[[XN]]
// CHECK: linalg.yield %[[E]], %[[SC]], %[[NS]], %[[NMX]] : f32, f32, f32, f32
// CHECK: %[[INS:.+]] = tensor.insert_slice %[[P]]#1 into %[[ACC]][%[[PREV]], 0] [1, 16] [1, 1]
// CHECK: scf.yield %[[INS]], %[[P]]#0, %[[P]]#3, %[[P]]#2
// CHECK-NOT: arith.maxnumf
// CHECK: %[[LINV:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[LOOP]]#3 : tensor<f32>)
// CHECK: %[[LAST:.+]] = linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%[[LOOP]]#1, %[[LINV]] : tensor<16xf32>, tensor<f32>)
// CHECK: arith.mulf
// CHECK: tensor.insert_slice %[[LAST]] into %[[LOOP]]#0[%{{.+}}, 0] [1, 16] [1, 1]
func.func @softmax_pipelined(%x: tensor<512x16xf32>) -> tensor<512x16xf32> {
  %0 = tl.softmax %x axis = -1 : tensor<512x16xf32>
  return %0 : tensor<512x16xf32>
}

// -----

// f32 log_softmax with 8 rows per chunk: pipelined the same way. Per row the sum of
// exponentials (prefetching), -max into its own 0-D tensor (the carried maximum is then
// overwritten), and one pass writing (x + -max) - log(sum) and taking the next row's maximum.
// CHECK-LABEL: func.func @log_softmax_pipelined
// CHECK: scf.forall (%{{.+}}) in (64)
// CHECK: %[[FIRST:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%{{.+}} : tensor<16xf32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: arith.maxnumf
// CHECK: scf.for %{{.+}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[CMAX:[^ ]+]] = %[[FIRST]]) -> (tensor<8x16xf32>, tensor<f32>)
// CHECK: %[[ROW:.+]] = tensor.extract_slice %{{.+}}[%{{.+}}, 0] [1, 16] [1, 1]
// CHECK: %[[NR:.+]] = arith.minsi
// CHECK: %[[NEXT:.+]] = tensor.extract_slice %{{.+}}[%[[NR]], 0] [1, 16] [1, 1]
// CHECK-NOT: arith.maxnumf
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[CMAX]] : tensor<16xf32>, tensor<f32>) outs(%{{.+}} : tensor<f32>) attrs = {tlc.prefetch_next_row} {
// CHECK: math.exp %{{.+}} {tlc.nonpositive_arg} : f32
// CHECK: %[[NEG:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[CMAX]] : tensor<f32>)
// CHECK: arith.negf
// CHECK: %[[MAXI:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[CMAX]] : tensor<f32>)
// CHECK: %[[LAST:.+]]:2 = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[NEXT]], %[[ROW]], %[[NEG]], %[[SUM]] : tensor<16xf32>, tensor<16xf32>, tensor<f32>, tensor<f32>) outs(%{{.+}}, %[[MAXI]] : tensor<16xf32>, tensor<f32>) {
// CHECK: ^bb0(%[[XN:[^:]+]]: f32, %[[X:[^:]+]]: f32, %[[NM:[^:]+]]: f32, %[[S:[^:]+]]: f32, %{{.+}}: f32, %[[M:[^:]+]]: f32):
// CHECK: %[[D:.+]] = arith.addf %[[X]], %[[NM]] : f32
// CHECK: %[[L:.+]] = math.log %[[S]] : f32
// CHECK: %[[V:.+]] = arith.subf %[[D]], %[[L]] : f32
// CHECK: %[[MX:.+]] = arith.maxnumf %[[M]], %[[XN]] : f32
// CHECK: linalg.yield %[[V]], %[[MX]] : f32, f32
// CHECK: scf.yield %{{.+}}, %[[LAST]]#1 : tensor<8x16xf32>, tensor<f32>
func.func @log_softmax_pipelined(%x: tensor<512x16xf32>) -> tensor<512x16xf32> {
  %0 = tl.log_softmax %x axis = 1 : tensor<512x16xf32>
  return %0 : tensor<512x16xf32>
}

// -----

// f16 log_softmax: the max and the sum of exponentials accumulate in f32; the result is
// rounded to f16 once, at the end. The sum of exponentials (the compute-bound pass) prefetches
// the next row of the input; the write pass does not.
// CHECK-LABEL: func.func @log_softmax_f16
// CHECK: scf.forall (%{{.+}}) in (4)
// CHECK: linalg.generic {{.+}} ins(%{{.+}} : tensor<8xf16>) outs(%{{.+}} : tensor<f32>) {
// CHECK: arith.extf %{{.+}} : f16 to f32
// CHECK: arith.maxnumf %{{.+}} : f32
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<f32>) attrs = {tlc.prefetch_next_row} {
// CHECK: math.exp %{{.+}} {tlc.nonpositive_arg} : f32
// CHECK: arith.addf %{{.+}} : f32
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<8xf16>) {
// CHECK: math.log %{{.+}} : f32
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @log_softmax_f16(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = tl.log_softmax %x axis = 1 : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// layer_norm over the two trailing axes: rows of 32, scale and bias collapsed to [32]; one row
// per chunk, so three passes per row: the sum, then (the mean in its own 0-D tensor) the sum
// of squared deviations from the mean (two-pass variance), then one write. No pass
// prefetches the next row (measured slower: the passes are short).
// CHECK-LABEL: func.func @layer_norm_trailing
// CHECK-DAG: %[[G:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK-DAG: %[[B:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK: scf.forall (%{{.+}}) in (3)
// CHECK: scf.for %{{.+}} iter_args(%{{[^ ]+}} = %{{[^ ]+}}) -> (tensor<1x32xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW:.+]] : tensor<32xf32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: %[[MEAN:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[SUM]] : tensor<f32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: arith.constant 3.125000e-02 : f32
// CHECK: %[[SQ:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[MEAN]] : tensor<32xf32>, tensor<f32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%[[ROW]], %[[MEAN]], %[[SQ]], %[[G]], %[[B]] : {{.+}} outs(%{{.+}} : tensor<32xf32>) {
// CHECK: math.rsqrt
func.func @layer_norm_trailing(%x: tensor<3x4x8xf32>, %g: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<3x4x8xf32> {
  %0 = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05 : tensor<3x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// -----

// layer_norm with 8 rows per chunk: software-pipelined. The chunk's first row is summed before
// its loop, which carries each row's sum; per row the mean (its own 0-D tensor), the squared
// deviations, then one pass that writes the row and sums the next one (clamped to the last
// row) into the carried sum, filled in place, yielded to the next row.
// CHECK-LABEL: func.func @layer_norm_pipelined
// CHECK: scf.forall (%{{.+}}) in (64)
// CHECK: %[[FIRST:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%{{.+}} : tensor<16xf32>) outs(%{{.+}} : tensor<f32>) {
// CHECK: scf.for %{{.+}} iter_args(%[[ACC:[^ ]+]] = %{{[^ ]+}}, %[[CSUM:[^ ]+]] = %[[FIRST]]) -> (tensor<8x16xf32>, tensor<f32>)
// CHECK: %[[R:.+]] = arith.addi
// CHECK: %[[ROW:.+]] = tensor.extract_slice %{{.+}}[%[[R]], 0] [1, 16] [1, 1]
// CHECK: %[[R1:.+]] = arith.addi %[[R]], %{{.+}} : index
// CHECK: %[[NR:.+]] = arith.minsi %[[R1]], %{{.+}} : index
// CHECK: %[[NEXT:.+]] = tensor.extract_slice %{{.+}}[%[[NR]], 0] [1, 16] [1, 1]
// CHECK: %[[OROW:.+]] = tensor.extract_slice %[[ACC]]
// CHECK: %[[MEAN:.+]] = linalg.generic {{.+}} iterator_types = []} ins(%[[CSUM]] : tensor<f32>)
// CHECK: %[[SQ:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[MEAN]] : tensor<16xf32>, tensor<f32>)
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[CSUM]] : tensor<f32>)
// CHECK: %[[LAST:.+]]:2 = linalg.generic {{.+}} iterator_types = ["reduction"]} ins(%[[ROW]], %[[NEXT]], %[[MEAN]], %[[SQ]], %{{.+}}, %{{.+}} : {{.+}}) outs(%[[OROW]], %[[INIT]] : tensor<16xf32>, tensor<f32>) {
// CHECK: ^bb0(%[[X:[^:]+]]: f32, %[[XN:[^:]+]]: f32, %{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32, %{{.+}}: f32, %[[S:[^:]+]]: f32):
// CHECK: math.rsqrt
// CHECK: %[[NS:.+]] = arith.addf %[[S]], %[[XN]] : f32
// CHECK: linalg.yield %{{.+}}, %[[NS]] : f32, f32
// CHECK: %[[INS:.+]] = tensor.insert_slice %[[LAST]]#0 into %[[ACC]]
// CHECK: scf.yield %[[INS]], %[[LAST]]#1 : tensor<8x16xf32>, tensor<f32>
func.func @layer_norm_pipelined(%x: tensor<512x16xf32>, %g: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<512x16xf32> {
  %0 = tl.layer_norm %x, %g, %b axis = 1 epsilon = 1.0e-05 : tensor<512x16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<512x16xf32>
  return %0 : tensor<512x16xf32>
}

// -----

// Not a row op: softmax over a middle axis keeps the whole-tensor lowering (no loop).
// CHECK-LABEL: func.func @softmax_middle_axis
// CHECK-NOT: scf.forall
// CHECK-NOT: tlc.prefetch_next_row
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.maximumf
func.func @softmax_middle_axis(%x: tensor<2x5x6xf32>) -> tensor<2x5x6xf32> {
  %0 = tl.softmax %x axis = 1 : tensor<2x5x6xf32>
  return %0 : tensor<2x5x6xf32>
}
