// RUN: tlc-opt %s -split-input-file -tlc-vectorize-rows="vector-bits=256 accumulators=2" -canonicalize | FileCheck %s

// A row maximum over 37 columns, 8 lanes, 2 accumulators: an unrolled loop of 16 columns per
// step up to 32 (its two vector steps interleaved op by op: both loads, then both maxima, so
// their dependence chains overlap), one more whole vector (32..40 would overrun, so none), a
// masked tail of 5, the accumulators folded and reduced across lanes into the row's value.
// CHECK-LABEL: func.func @row_max
// CHECK-DAG: %[[NEG:.+]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: scf.for %[[R:.+]] =
// CHECK: %[[INIT:.+]] = memref.load %{{.+}}[%[[R]]] : memref<4xf32>
// CHECK: %[[ACC:.+]]:2 = scf.for %[[K:.+]] = %{{.+}} to %[[C32]] step %[[C16]] iter_args(%[[A0:.+]] = %[[NEG]], %[[A1:.+]] = %[[NEG]])
// CHECK: %[[X0:.+]] = vector.load %{{.+}}[%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK: %[[X1:.+]] = vector.load
// CHECK: arith.maximumf %[[A0]], %[[X0]] : vector<8xf32>
// CHECK: arith.maximumf %[[A1]], %[[X1]] : vector<8xf32>
// CHECK: %[[MASK:.+]] = vector.constant_mask [5] : vector<8xi1>
// CHECK: vector.maskedload %{{.+}}[%[[R]], %[[C32]]], %[[MASK]]
// CHECK: %[[TAIL:.+]] = arith.select %[[MASK]]
// CHECK: %[[BOTH:.+]] = arith.maximumf %[[TAIL]], %[[ACC]]#1 : vector<8xf32>
// CHECK: %[[RED:.+]] = vector.reduction <maximumf>, %[[BOTH]], %[[INIT]] fastmath<reassoc>
// CHECK: memref.store %[[RED]], %{{.+}}[%[[R]]]
// CHECK-NOT: linalg.generic
func.func @row_max(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A NaN-ignoring row maximum (maxnumf, as softmax uses) into a row filled with -inf just
// before: the same loops, but each step is a compare-and-select from -inf (not maxnumf's
// neutral NaN, which a compare would never leave), the accumulators folded and reduced across
// lanes by halves the same way, and only the last step into the row's current value is
// maxnumf itself.
// CHECK-LABEL: func.func @row_maxnum
// CHECK-DAG: %[[NEG:.+]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK: scf.for %[[R:.+]] =
// CHECK: %[[INIT:.+]] = memref.load %{{.+}}[%[[R]]] : memref<4xf32>
// CHECK: %[[ACC:.+]]:2 = scf.for %{{.+}} iter_args(%[[A0:.+]] = %[[NEG]], %[[A1:.+]] = %[[NEG]])
// CHECK: %[[X0:.+]] = vector.load
// CHECK: %[[X1:.+]] = vector.load
// CHECK: %[[GT0:.+]] = arith.cmpf ogt, %[[X0]], %[[A0]] : vector<8xf32>
// CHECK: arith.select %[[GT0]], %[[X0]], %[[A0]] : vector<8xi1>, vector<8xf32>
// CHECK: %[[GT1:.+]] = arith.cmpf ogt, %[[X1]], %[[A1]] : vector<8xf32>
// CHECK: arith.select %[[GT1]], %[[X1]], %[[A1]] : vector<8xi1>, vector<8xf32>
// CHECK: %[[MASK:.+]] = vector.constant_mask [5] : vector<8xi1>
// CHECK: %[[XT:.+]] = vector.maskedload
// CHECK: %[[GTT:.+]] = arith.cmpf ogt, %[[XT]], %[[ACC]]#0 : vector<8xf32>
// CHECK: %[[SELT:.+]] = arith.select %[[GTT]], %[[XT]], %[[ACC]]#0
// CHECK: %[[TAIL:.+]] = arith.select %[[MASK]], %[[SELT]], %[[ACC]]#0
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[TAIL]], %[[ACC]]#1 : vector<8xf32>
// CHECK: %[[BOTH:.+]] = arith.select %[[GT]], %[[TAIL]], %[[ACC]]#1
// CHECK: %[[LO4:.+]] = vector.extract_strided_slice %[[BOTH]] {offsets = [0], sizes = [4], strides = [1]}
// CHECK: %[[HI4:.+]] = vector.extract_strided_slice %[[BOTH]] {offsets = [4], sizes = [4], strides = [1]}
// CHECK: arith.cmpf ogt, %[[LO4]], %[[HI4]] : vector<4xf32>
// CHECK: vector.extract_strided_slice %{{.+}} {offsets = [0], sizes = [2], strides = [1]}
// CHECK: vector.extract_strided_slice %{{.+}} {offsets = [0], sizes = [1], strides = [1]}
// CHECK: %[[LANE:.+]] = vector.extract %{{.+}}[0] : f32 from vector<1xf32>
// CHECK: %[[RED:.+]] = arith.maxnumf %[[LANE]], %[[INIT]] : f32
// CHECK: memref.store %[[RED]], %{{.+}}[%[[R]]]
// CHECK-NOT: vector.reduction
// CHECK-NOT: linalg.generic
func.func @row_maxnum(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%out : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row minimum with minnumf the accumulator second, into a row filled with a finite value:
// compare-and-select with olt, from +inf.
// CHECK-LABEL: func.func @row_minnum
// CHECK-DAG: %[[POS:.+]] = arith.constant dense<0x7F800000> : vector<8xf32>
// CHECK: scf.for %{{.+}} iter_args(%[[A0:.+]] = %[[POS]], %{{.+}} = %[[POS]])
// CHECK: %[[X0:.+]] = vector.load
// CHECK: %[[LT0:.+]] = arith.cmpf olt, %[[X0]], %[[A0]] : vector<8xf32>
// CHECK: arith.select %[[LT0]], %[[X0]], %[[A0]]
// CHECK: arith.minnumf %{{.+}} : f32
// CHECK-NOT: vector.reduction
func.func @row_minnum(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.minnumf %a, %acc : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Negative: maxnumf into a row whose initial value is not known to be non-NaN (no fill
// before it, or a NaN fill): the compare-and-select form would give an all-NaN row -inf
// instead of NaN, so these keep maxnumf from its neutral NaN and vector.reduction.
// CHECK-LABEL: func.func @row_maxnum_unknown_init
// CHECK-DAG: %[[NAN:.+]] = arith.constant dense<0xFFC00000> : vector<8xf32>
// CHECK: scf.for %{{.+}} iter_args(%[[A0:.+]] = %[[NAN]], %{{.+}} = %[[NAN]])
// CHECK: arith.maxnumf %[[A0]], %{{.+}} : vector<8xf32>
// CHECK-NOT: arith.cmpf
// CHECK: vector.reduction <maxnumf>
// CHECK-LABEL: func.func @row_maxnum_nan_init
// CHECK-NOT: arith.cmpf
// CHECK: vector.reduction <maxnumf>
// The last fill before it (-inf) is followed by a NaN fill of part of the same row: the
// initial value is not known to be non-NaN.
// CHECK-LABEL: func.func @row_maxnum_partly_nan_init
// CHECK-NOT: arith.cmpf
// CHECK: vector.reduction <maxnumf>
func.func @row_maxnum_unknown_init(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}
func.func @row_maxnum_nan_init(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  %nan = arith.constant 0x7FC00000 : f32
  linalg.fill ins(%nan : f32) outs(%out : memref<4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}
func.func @row_maxnum_partly_nan_init(%x: memref<4x37xf32>, %out: memref<4xf32>) {
  %lowest = arith.constant 0xFF800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  linalg.fill ins(%lowest : f32) outs(%out : memref<4xf32>)
  %head = memref.subview %out[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  linalg.fill ins(%nan : f32) outs(%head : memref<2xf32, strided<[1]>>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x37xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maxnumf %acc, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// An elementwise row with a per-row scalar (read once per row and broadcast): whole vectors,
// then a masked store of the last 5 columns.
// CHECK-LABEL: func.func @exp_sub
// CHECK: scf.for %[[R:.+]] =
// CHECK: %[[M:.+]] = memref.load %{{.+}}[%[[R]]] : memref<4xf32>
// CHECK: scf.for %[[K:[^ ]+]] =
// CHECK: %[[X:.+]] = vector.load %{{.+}}[%[[R]], %[[K]]]
// CHECK: %[[MB:.+]] = vector.broadcast %[[M]] : f32 to vector<8xf32>
// CHECK: %[[D:.+]] = arith.subf %[[X]], %[[MB]] : vector<8xf32>
// CHECK: %[[E:.+]] = math.exp %[[D]] : vector<8xf32>
// CHECK: vector.store %[[E]], %{{.+}}[%[[R]], %[[K]]]
// CHECK: vector.maskedstore
func.func @exp_sub(%x: memref<4x37xf32>, %m: memref<4xf32>, %out: memref<4x37xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<4x37xf32>, memref<4xf32>) outs(%out : memref<4x37xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// f16 input, f32 accumulation (a sum of squares into a 0-D output on a strided row view):
// the body's casts are vectorized with it; the float sum reassociates.
// CHECK-LABEL: func.func @f16_sum_squares
// CHECK: scf.for
// CHECK: vector.load %{{.+}} : memref<64xf16, strided<[1], offset: ?>>, vector<8xf16>
// CHECK: arith.extf %{{.+}} : vector<8xf16> to vector<8xf32>
// CHECK: vector.reduction <add>, %{{.+}}, %{{.+}} fastmath<reassoc> : vector<8xf32> into f32
// CHECK: memref.store %{{.+}}, %{{.+}}[] : memref<f32>
func.func @f16_sum_squares(%x: memref<64xf16, strided<[1], offset: ?>>, %out: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x : memref<64xf16, strided<[1], offset: ?>>) outs(%out : memref<f32>) {
  ^bb0(%a: f16, %acc: f32):
    %e = arith.extf %a : f16 to f32
    %s = arith.mulf %e, %e : f32
    %r = arith.addf %acc, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Keepdims reduction (output map with a constant 0) of i32 with a sum: identity 0, integer
// reduction without fast-math flags.
// CHECK-LABEL: func.func @keepdims_sum_i32
// CHECK: memref.load %{{.+}}[%[[R:.+]], %{{.+}}] : memref<3x1xi32>
// CHECK: arith.addi %{{.+}} : vector<8xi32>
// CHECK: vector.reduction <add>, %{{.+}}, %{{.+}} : vector<8xi32> into i32
func.func @keepdims_sum_i32(%x: memref<3x40xi32>, %out: memref<3x1xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x40xi32>) outs(%out : memref<3x1xi32>) {
  ^bb0(%a: i32, %acc: i32):
    %r = arith.addi %acc, %a : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Left alone: a reduction over the strided axis (its innermost loop walks d0 with stride 8),
// an index computation, a short elementwise row (3 < 8 lanes), an i1 buffer, and an integer
// division (its masked-off tail lanes would divide by zero).
// CHECK-LABEL: func.func @negative
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: vector.
func.func @negative(%x: memref<16x8xf32>, %o: memref<8xf32>, %i: memref<64xi32>,
                    %s: memref<3xf32>, %b: memref<64xi1>, %dv: memref<37xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%dv : memref<37xi32>) {
  ^bb0(%out: i32):
    %q = arith.divsi %out, %out : i32
    linalg.yield %q : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x8xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%i : memref<64xi32>) {
  ^bb0(%out: i32):
    %k = linalg.index 0 : index
    %c = arith.index_cast %k : index to i32
    linalg.yield %c : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%s : memref<3xf32>) {
  ^bb0(%out: f32):
    %e = math.exp %out : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%b : memref<64xi1>) {
  ^bb0(%out: i1):
    %n = arith.xori %out, %out : i1
    linalg.yield %n : i1
  }
  return
}

// -----

// A reduction that also writes a value per column (softmax's exp(x - max) beside their sum):
// the per-column output is stored vector by vector in the reduction's loop (masked in the
// tail) and only the sum's accumulators are loop-carried.
// CHECK-LABEL: func.func @row_write_and_sum
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: scf.for %[[R:.+]] =
// CHECK: %[[INIT:.+]] = memref.load %{{.+}}[%[[R]]] : memref<4xf32>
// CHECK: %[[ACC:.+]]:2 = scf.for %[[K:.+]] = %{{.+}} to %[[C32]] step %[[C16]] iter_args(%[[A0:.+]] = %[[ZERO]], %[[A1:.+]] = %[[ZERO]]) -> (vector<8xf32>, vector<8xf32>)
// CHECK: %[[X0:.+]] = vector.load %{{.+}}[%[[R]], %[[K]]] : memref<4x36xf32>, vector<8xf32>
// CHECK: %[[X1:.+]] = vector.load
// CHECK: %[[E0:.+]] = math.exp %[[X0]] : vector<8xf32>
// CHECK: %[[E1:.+]] = math.exp %[[X1]] : vector<8xf32>
// CHECK: %[[S0:.+]] = arith.addf %[[A0]], %[[E0]] : vector<8xf32>
// CHECK: %[[S1:.+]] = arith.addf %[[A1]], %[[E1]] : vector<8xf32>
// CHECK: vector.store %[[E0]], %{{.+}}[%[[R]], %[[K]]] : memref<4x36xf32>, vector<8xf32>
// CHECK: vector.store %[[E1]]
// CHECK: scf.yield %[[S0]], %[[S1]] : vector<8xf32>, vector<8xf32>
// CHECK: %[[MASK:.+]] = vector.constant_mask [4] : vector<8xi1>
// CHECK: vector.maskedload %{{.+}}[%[[R]], %[[C32]]], %[[MASK]]
// CHECK: %[[ET:.+]] = math.exp
// CHECK: vector.maskedstore %{{.+}}[%[[R]], %[[C32]]], %[[MASK]], %[[ET]]
// CHECK: arith.select %[[MASK]]
// CHECK: %[[RED:.+]] = vector.reduction <add>, %{{.+}}, %[[INIT]] fastmath<reassoc>
// CHECK: memref.store %[[RED]], %{{.+}}[%[[R]]]
// CHECK-NOT: linalg.generic
func.func @row_write_and_sum(%x: memref<4x36xf32>, %y: memref<4x36xf32>, %sum: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x36xf32>) outs(%y, %sum : memref<4x36xf32>, memref<4xf32>) {
  ^bb0(%a: f32, %out: f32, %acc: f32):
    %e = math.exp %a : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %e, %s : f32, f32
  }
  return
}

// -----

// Per-column outputs of a reduction that are also read (softmax's fused pass: the scratch
// row's previous exponentials are read before the new ones replace them, and written scaled
// into the previous output row), beside two reductions (the sum and the next row's maximum):
// each column's element is loaded (masked in the tail), used and stored back in the
// reduction's loop, like an elementwise op's output; only the accumulators are carried.
// CHECK-LABEL: func.func @row_per_column_read
// CHECK-SAME: (%[[X:[^:]+]]: memref<4x37xf32>, %[[N:[^:]+]]: memref<4x37xf32>, %[[Y:[^:]+]]: memref<4x37xf32>, %[[Z:[^:]+]]: memref<4x37xf32>
// CHECK: scf.for %[[R:.+]] =
// CHECK: scf.for %[[K:.+]] = {{.+}} iter_args({{.+}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// CHECK: %[[XV:.+]] = vector.load %[[X]][%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK: %[[NV:.+]] = vector.load %[[N]][%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK: %[[YV:.+]] = vector.load %[[Y]][%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK-NOT: vector.load %[[Z]]
// CHECK: %[[E:.+]] = arith.mulf %[[YV]], %{{.+}} : vector<8xf32>
// CHECK: vector.store %[[XV]], %[[Y]][%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK: vector.store %[[E]], %[[Z]][%[[R]], %[[K]]] : memref<4x37xf32>, vector<8xf32>
// CHECK: vector.maskedload %[[Y]]
// CHECK: vector.maskedstore %[[Y]]
// CHECK: vector.maskedstore %[[Z]]
// CHECK-NOT: linalg.generic
func.func @row_per_column_read(%x: memref<4x37xf32>, %n: memref<4x37xf32>, %y: memref<4x37xf32>, %z: memref<4x37xf32>, %sum: memref<4xf32>, %m: memref<4xf32>, %s: f32) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %n : memref<4x37xf32>, memref<4x37xf32>) outs(%y, %z, %sum, %m : memref<4x37xf32>, memref<4x37xf32>, memref<4xf32>, memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %prev: f32, %unused: f32, %acc: f32, %mx: f32):
    %e = arith.mulf %prev, %s : f32
    %t = arith.addf %acc, %a : f32
    %nm = arith.maxnumf %mx, %b : f32
    linalg.yield %a, %e, %t, %nm : f32, f32, f32, f32
  }
  return
}

// -----

// Negative: a per-column output computed from the running accumulator (a scan) is left alone.
// CHECK-LABEL: func.func @row_per_column_scan
// CHECK: linalg.generic
// CHECK-NOT: vector.load
func.func @row_per_column_scan(%x: memref<4x20xf32>, %y: memref<4x20xf32>, %sum: memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>,
                                   affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x20xf32>) outs(%y, %sum : memref<4x20xf32>, memref<4xf32>) {
  ^bb0(%a: f32, %out: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s, %s : f32, f32
  }
  return
}

// -----

// A pass marked tlc.prefetch_next_row (a row op's compute-bound pass) over rows of 2-D
// buffers: each whole-vector step also prefetches the same columns of the next row, so its
// misses overlap this row's arithmetic. The input's rows are subviews of %x (row i + 1,
// clamped to the last row, 3); the output's rows are subviews of a two-row chunk of %y, so
// its next row is resolved into %y (chunk offset + i + 1, clamped to 7) and prefetched for
// writing. The masked tail prefetches nothing; the 0-D sum is not a row.
// CHECK-LABEL: func.func @prefetch_next_row
// CHECK-SAME: (%[[X:[^:]+]]: memref<4x37xf32>, %[[Y:[^:]+]]: memref<8x37xf32>, %[[C:[^:]+]]: index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
// CHECK: scf.for %[[I:[^ ]+]] =
// CHECK: %[[XN:.+]] = arith.addi %[[I]], %[[C1]] : index
// CHECK: %[[XR:.+]] = arith.minsi %[[XN]], %[[C3]] : index
// CHECK: %[[YN:.+]] = arith.addi %[[I]], %[[C1]] : index
// CHECK: %[[YA:.+]] = affine.apply #{{.+}}()[%[[C]], %[[YN]]]
// CHECK: %[[YR:.+]] = arith.minsi %[[YA]], %[[C7]] : index
// CHECK: scf.for %[[K:[^ ]+]] =
// CHECK: %[[K8:.+]] = arith.addi %[[K]], %{{.+}} : index
// CHECK: memref.prefetch %[[X]][%[[XR]], %[[K]]], read, locality<3>, data : memref<4x37xf32>
// CHECK: memref.prefetch %[[Y]][%[[YR]], %[[K]]], write, locality<3>, data : memref<8x37xf32>
// CHECK: vector.load
// CHECK: memref.prefetch %[[X]][%[[XR]], %[[K8]]], read
// CHECK: memref.prefetch %[[Y]][%[[YR]], %[[K8]]], write
// CHECK: vector.load
// CHECK: math.exp
// CHECK: scf.yield
// CHECK-NOT: memref.prefetch
// CHECK: vector.maskedload
// CHECK: vector.reduction
func.func @prefetch_next_row(%x: memref<4x37xf32>, %y: memref<8x37xf32>, %c: index, %sum: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %chunk = memref.subview %y[%c, 0] [2, 37] [1, 1] : memref<8x37xf32> to memref<2x37xf32, strided<[37, 1], offset: ?>>
  scf.for %i = %c0 to %c2 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 37] [1, 1] : memref<4x37xf32> to memref<37xf32, strided<[1], offset: ?>>
    %yr = memref.subview %chunk[%i, 0] [1, 37] [1, 1] : memref<2x37xf32, strided<[37, 1], offset: ?>> to memref<37xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                    iterator_types = ["reduction"]}
        ins(%xr : memref<37xf32, strided<[1], offset: ?>>)
        outs(%yr, %sum : memref<37xf32, strided<[1], offset: ?>>, memref<f32>) attrs = {tlc.prefetch_next_row} {
    ^bb0(%a: f32, %o: f32, %s: f32):
      %e = math.exp %a : f32
      %n = arith.addf %s, %e : f32
      linalg.yield %e, %n : f32, f32
    }
  }
  return
}

// -----

// No prefetches: the same row pass without tlc.prefetch_next_row, and a marked pass whose
// operands are not rows of a 2-D buffer (a whole 1-D buffer, a row of a 3-D one), so there
// is no next row to name; both are still vectorized.
// CHECK-LABEL: func.func @no_prefetch
// CHECK-NOT: memref.prefetch
// CHECK: vector.store
// CHECK-NOT: memref.prefetch
// CHECK: vector.store
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @no_prefetch(%x: memref<4x37xf32>, %y: memref<4x37xf32>, %v: memref<2x3x16xf32>, %w: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %xr = memref.subview %x[%i, 0] [1, 37] [1, 1] : memref<4x37xf32> to memref<37xf32, strided<[1], offset: ?>>
    %yr = memref.subview %y[%i, 0] [1, 37] [1, 1] : memref<4x37xf32> to memref<37xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%xr : memref<37xf32, strided<[1], offset: ?>>) outs(%yr : memref<37xf32, strided<[1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %e = math.exp %a : f32
      linalg.yield %e : f32
    }
  }
  %vr = memref.subview %v[1, 1, 0] [1, 1, 16] [1, 1, 1] : memref<2x3x16xf32> to memref<16xf32, strided<[1], offset: 64>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%vr : memref<16xf32, strided<[1], offset: 64>>) outs(%w : memref<16xf32>) attrs = {tlc.prefetch_next_row} {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A copy on buffers (a convolution's padding copy: 20 columns into the interior of a padded
// image) is a row like any elementwise op: two whole vectors of 8 and a masked tail of 4,
// no scalar loop. A copy whose innermost loop is strided in its source (a transpose) is left
// as a generic for convert-linalg-to-loops.
// CHECK-LABEL: func.func @copy_rows
// CHECK-NOT: linalg.copy
// CHECK: scf.for %[[R:.+]] =
// CHECK: %[[V:.+]] = vector.load %{{.+}}[%[[R]], %{{.+}}] : memref<3x20xf32>, vector<8xf32>
// CHECK: vector.store %[[V]], %{{.+}}[%[[R]], %{{.+}}] : memref<3x20xf32, strided<[22, 1], offset: 23>>, vector<8xf32>
// CHECK: vector.maskedload
// CHECK: vector.maskedstore
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-NOT: vector.load
// CHECK: return
func.func @copy_rows(%x: memref<3x20xf32>, %padded: memref<5x22xf32>, %t: memref<20x3xf32>) {
  %interior = memref.subview %padded[1, 1] [3, 20] [1, 1]
      : memref<5x22xf32> to memref<3x20xf32, strided<[22, 1], offset: 23>>
  linalg.copy ins(%x : memref<3x20xf32>) outs(%interior : memref<3x20xf32, strided<[22, 1], offset: 23>>)
  %xt = memref.transpose %x (d0, d1) -> (d1, d0)
      : memref<3x20xf32> to memref<20x3xf32, strided<[1, 20]>>
  linalg.copy ins(%xt : memref<20x3xf32, strided<[1, 20]>>) outs(%t : memref<20x3xf32>)
  return
}

// -----

// A chunk of a copy as tlc-parallelize-loops cuts it (the last chunk is shorter, so the
// channel count is dynamic): only the row length must be static, the outer loop runs to the
// view's dynamic size. A row of dynamic length is left as a generic.
// CHECK-LABEL: func.func @dynamic_outer
// CHECK-SAME: %{{[a-z0-9]+}}: index, %[[N:[a-z0-9]+]]: index
// CHECK: %[[SRC:.+]] = memref.subview %{{.+}}[%{{.+}}, 0] [%[[N]], 20] [1, 1]
// CHECK: %[[DST:.+]] = memref.subview %{{.+}}[%{{.+}}, 1] [%[[N]], 20] [1, 1]
// CHECK: scf.for %[[R:.+]] = %{{.+}} to %[[N]] step
// CHECK: %[[V:.+]] = vector.load %[[SRC]][%[[R]], %{{.+}}] : memref<?x20xf32, strided<[20, 1], offset: ?>>, vector<8xf32>
// CHECK: vector.store %[[V]], %[[DST]][%[[R]], %{{.+}}]
// CHECK: vector.maskedstore
// CHECK: linalg.generic
// CHECK-SAME: outs(%{{.+}} : memref<2x?xf32>)
// CHECK: return
func.func @dynamic_outer(%x: memref<9x20xf32>, %padded: memref<9x22xf32>, %i: index, %n: index,
                         %y: memref<2x?xf32>, %z: memref<2x?xf32>) {
  %src = memref.subview %x[%i, 0] [%n, 20] [1, 1]
      : memref<9x20xf32> to memref<?x20xf32, strided<[20, 1], offset: ?>>
  %dst = memref.subview %padded[%i, 1] [%n, 20] [1, 1]
      : memref<9x22xf32> to memref<?x20xf32, strided<[22, 1], offset: ?>>
  linalg.copy ins(%src : memref<?x20xf32, strided<[20, 1], offset: ?>>)
              outs(%dst : memref<?x20xf32, strided<[22, 1], offset: ?>>)
  linalg.copy ins(%y : memref<2x?xf32>) outs(%z : memref<2x?xf32>)
  return
}

// -----

// Fills of contiguous memory become one fill of a collapsed 1-D view (a [31, 961] pooling
// output plane's -inf fill was fully unrolled by LLVM as a loop nest: 3,724 stores in one
// block); a fill of a strided box stays as it is.
// CHECK-LABEL: func.func @fills
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2, 3]] : memref<1x1x31x961xf32, strided<[89373, 29791, 961, 1], offset: ?>> into memref<29791xf32, strided<[1], offset: ?>>
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[FLAT]] : memref<29791xf32, strided<[1], offset: ?>>)
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<4x8xf32, strided<[16, 1]>>)
// CHECK-NOT: linalg.fill
func.func @fills(%a: memref<1x3x31x961xf32>, %i: index, %b: memref<4x16xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %s = memref.subview %a[0, %i, 0, 0] [1, 1, 31, 961] [1, 1, 1, 1] : memref<1x3x31x961xf32> to memref<1x1x31x961xf32, strided<[89373, 29791, 961, 1], offset: ?>>
  linalg.fill ins(%ninf : f32) outs(%s : memref<1x1x31x961xf32, strided<[89373, 29791, 961, 1], offset: ?>>)
  %t = memref.subview %b[0, 0] [4, 8] [1, 1] : memref<4x16xf32> to memref<4x8xf32, strided<[16, 1]>>
  linalg.fill ins(%ninf : f32) outs(%t : memref<4x8xf32, strided<[16, 1]>>)
  return
}
