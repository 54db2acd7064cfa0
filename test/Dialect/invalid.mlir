// RUN: tlc-opt %s -split-input-file -verify-diagnostics

// Every verifier and type-inference message of the tl dialect. Inference errors are followed by
// the generic "failed to infer returned types", which is pinned as well so no error goes unseen.

//===----------------------------------------------------------------------===//
// Elementwise: broadcasting and element types
//===----------------------------------------------------------------------===//

func.func @broadcast_mismatch(%a: tensor<4x8xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{shapes 4x8 and 3 do not broadcast (dimension 8 against 3)}}
  // expected-error @+1 {{'tl.add' op failed to infer returned types}}
  %0 = tl.add %a, %b : tensor<4x8xf32>, tensor<3xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_mismatch_leading(%a: tensor<2x1xf32>, %b: tensor<3x5xf32>) {
  // expected-error @+2 {{shapes 2x1 and 3x5 do not broadcast (dimension 2 against 3)}}
  // expected-error @+1 {{'tl.max' op failed to infer returned types}}
  %0 = tl.max %a, %b : tensor<2x1xf32>, tensor<3x5xf32> -> tensor<3x5xf32>
  return
}

// -----

func.func @compare_broadcast_mismatch(%a: tensor<4xi32>, %b: tensor<5xi32>) {
  // expected-error @+2 {{shapes 4 and 5 do not broadcast (dimension 4 against 5)}}
  // expected-error @+1 {{'tl.compare' op failed to infer returned types}}
  %0 = tl.compare lt %a, %b : tensor<4xi32>, tensor<5xi32> -> tensor<4xi1>
  return
}

// -----

func.func @select_broadcast_mismatch(%c: tensor<3xi1>, %a: tensor<4xf32>) {
  // expected-error @+2 {{shapes 3 and 4 and 4 do not broadcast (dimension 3 against 4)}}
  // expected-error @+1 {{'tl.select' op failed to infer returned types}}
  %0 = tl.select %c, %a, %a : tensor<3xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @element_type_mismatch(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+2 {{operand element types 'f32' and 'f16' differ}}
  // expected-error @+1 {{'tl.mul' op failed to infer returned types}}
  %0 = tl.mul %a, %b : tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return
}

// -----

func.func @compare_element_type_mismatch(%a: tensor<4xi32>, %b: tensor<4xi64>) {
  // expected-error @+2 {{operand element types 'i32' and 'i64' differ}}
  // expected-error @+1 {{'tl.compare' op failed to infer returned types}}
  %0 = tl.compare eq %a, %b : tensor<4xi32>, tensor<4xi64> -> tensor<4xi1>
  return
}

// -----

func.func @select_element_type_mismatch(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xbf16>) {
  // expected-error @+2 {{operand element types 'f32' and 'bf16' differ}}
  // expected-error @+1 {{'tl.select' op failed to infer returned types}}
  %0 = tl.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xbf16> -> tensor<4xf32>
  return
}

// -----

// The written result type must be the inferred one.
func.func @result_type_mismatch(%a: tensor<4xf32>) {
  // expected-error @+2 {{'tl.sub' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  // expected-error @+1 {{'tl.sub' op failed to infer returned types}}
  %0 = tl.sub %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<5xf32>
  return
}

// -----

func.func @select_cond_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tl.select' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = tl.select %a, %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @compare_result_not_i1(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tl.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = tl.compare eq %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi32>
  return
}

// -----

func.func @float_op_on_integers(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tl.exp' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = tl.exp %a : tensor<4xi32>
  return
}

// -----

func.func @unsupported_element_type(%a: tensor<4xi8>) {
  // expected-error @+1 {{'tl.neg' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float or 1-bit signless integer or 32-bit signless integer or 64-bit signless integer values, but got 'tensor<4xi8>'}}
  %0 = tl.neg %a : tensor<4xi8>
  return
}

// -----

// i8 and i16 are storage types: casts and constants carry them, arithmetic does not.
func.func @storage_type_arithmetic(%a: tensor<4xi8>) -> tensor<4xi16> {
  %w = tl.cast %a {from_unsigned} : tensor<4xi8> to tensor<4xi32>
  %c = tl.constant dense<7> : tensor<4xi16>
  // expected-error @+1 {{'tl.add' op operand #0 must be statically shaped tensor of}}
  %0 = tl.add %c, %c : tensor<4xi16>, tensor<4xi16> -> tensor<4xi16>
  return %0 : tensor<4xi16>
}

// -----

func.func @unknown_predicate(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'tl.compare' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = tl.compare foo %a, %a : tensor<4xf32>, tensor<4xf32> -> tensor<4xi1>
  return
}

// -----

func.func @unknown_gelu_approximation(%a: tensor<4xf32>) {
  // expected-error @+1 {{custom op 'tl.gelu' expected string or keyword containing one of the following enum values for attribute 'approximate' [none, tanh]}}
  %0 = tl.gelu %a approximate = fast : tensor<4xf32>
  return
}

// -----

func.func @cast_shape(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'tl.cast' op input shape 4x8 differs from result shape 8x4}}
  %0 = tl.cast %a : tensor<4x8xf32> to tensor<8x4xi32>
  return
}

// -----

func.func @cast_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tl.cast' op input shape 4 differs from result shape scalar}}
  %0 = tl.cast %a : tensor<4xf32> to tensor<f16>
  return
}

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

// -----

func.func @constant_not_tensor() {
  // expected-error @+1 {{constant value must have a static ranked tensor type}}
  %0 = tl.constant dense<1.0> : vector<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

// -----

func.func @einsum_no_operands() {
  // expected-error @+2 {{einsum needs at least one operand}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "->" : () -> tensor<f32>
  return
}

// -----

func.func @einsum_element_types(%a: tensor<3x4xf32>, %b: tensor<4x5xf64>) {
  // expected-error @+2 {{einsum operand 1 has element type 'f64' but operand 0 has 'f32'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij,jk->ik" %a, %b : (tensor<3x4xf32>, tensor<4x5xf64>) -> tensor<3x5xf32>
  return
}

// -----

func.func @einsum_too_few_terms(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{einsum equation 'ij->ij' has 1 operand term(s) but 2 operand(s) were given}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->ij" %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_too_many_terms(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum equation 'ij,jk,kl' has 3 operand term(s) but 1 operand(s) were given}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij,jk,kl" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_two_arrows(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum equation 'ij->ji->ij' has more than one '->'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->ji->ij" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_too_many_labels(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum operand 0 term 'ijk' has 3 label(s) but the operand has rank 2}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ijk->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @einsum_too_few_labels(%a: tensor<3x4xf32>, %b: tensor<4x5x6xf32>) {
  // expected-error @+2 {{einsum operand 1 term 'jk' has 2 label(s) but the operand has rank 3}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij, jk ->ik" %a, %b : (tensor<3x4xf32>, tensor<4x5x6xf32>) -> tensor<3x5xf32>
  return
}

// -----

// With '...' the labels may cover fewer axes than the rank, never more.
func.func @einsum_ellipsis_too_many_labels(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum operand 0 term '...ijk' has 3 label(s) but the operand has rank 2}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "...ijk" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_label_extent(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error @+2 {{einsum label 'j' has extent 5 in operand 1 but extent 4 where it first appears}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij,jk->ik" %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

// A label repeated within one operand (a diagonal) needs equal extents there too.
func.func @einsum_diagonal_extent(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum label 'i' has extent 4 in operand 0 but extent 3 where it first appears}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ii->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @einsum_bad_character(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum operand 0 has invalid character '1' (labels are letters)}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "i1->i" %a : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @einsum_bad_character_output(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum output has invalid character '_' (labels are letters)}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->i_j" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_lone_dot(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum operand 0 has a '.' that is not part of '...'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "..ij->ij" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_lone_dot_output(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum output has a '.' that is not part of '...'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->i.j" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_two_ellipses(%a: tensor<2x3x4xf32>) {
  // expected-error @+2 {{einsum operand 0 has more than one '...'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "...i...->i" %a : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @einsum_two_ellipses_output(%a: tensor<2x3x4xf32>) {
  // expected-error @+2 {{einsum output has more than one '...'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "...i->......i" %a : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @einsum_output_label_missing(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{einsum output label 'z' does not appear in any operand}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->iz" %a : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_output_label_repeated(%a: tensor<3x3xf32>) {
  // expected-error @+2 {{einsum output label 'i' appears more than once}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij->ii" %a : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @einsum_output_missing_ellipsis(%a: tensor<2x3x4xf32>) {
  // expected-error @+2 {{einsum output must contain '...' because the operands do}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "...ij->ij" %a : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @einsum_ellipsis_not_broadcasting(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) {
  // expected-error @+2 {{einsum '...' dimensions do not broadcast: extent 5 of operand 1 against 2}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "...ij,...jk->...ik" %a, %b : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x3x6xf32>
  return
}

// -----

func.func @einsum_result_type(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{'tl.einsum' op inferred type(s) 'tensor<3x5xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
  // expected-error @+1 {{'tl.einsum' op failed to infer returned types}}
  %0 = tl.einsum "ij,jk" %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<5x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Reductions and softmax
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'tl.reduce_sum' op failed to infer returned types}}
  %0 = tl.reduce_sum %a axes = [2] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_negative_axis_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'tl.reduce_max' op failed to infer returned types}}
  %0 = tl.reduce_max %a axes = [-3] keepdims : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @reduce_axis_repeated(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{axis -1 is repeated}}
  // expected-error @+1 {{'tl.reduce_mean' op failed to infer returned types}}
  %0 = tl.reduce_mean %a axes = [1, -1] : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_keepdims_result(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{'tl.reduce_min' op inferred type(s) 'tensor<4x1xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'tl.reduce_min' op failed to infer returned types}}
  %0 = tl.reduce_min %a axes = [1] keepdims : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'tl.softmax' op axis 2 is out of range for rank 2}}
  %0 = tl.softmax %a axis = 2 : tensor<4x8xf32>
  return
}

// -----

func.func @log_softmax_axis(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'tl.log_softmax' op axis -3 is out of range for rank 2}}
  %0 = tl.log_softmax %a axis = -3 : tensor<4x8xf32>
  return
}

// -----

func.func @softmax_scalar(%a: tensor<f32>) {
  // expected-error @+1 {{'tl.softmax' op axis 0 is out of range for rank 0}}
  %0 = tl.softmax %a axis = 0 : tensor<f32>
  return
}

// -----

func.func @softmax_integer(%a: tensor<4xi32>) {
  // expected-error @+1 {{'tl.softmax' op operand #0 must be statically shaped tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values, but got 'tensor<4xi32>'}}
  %0 = tl.softmax %a axis = 0 : tensor<4xi32>
  return
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_count(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'tl.reshape' op cannot reshape 4x8 (32 elements) to 3x8 (24 elements)}}
  %0 = tl.reshape %a : tensor<4x8xf32> -> tensor<3x8xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<4x8xf32>) {
  // expected-error @+1 {{'tl.reshape' op element type 'f16' differs from input's 'f32'}}
  %0 = tl.reshape %a : tensor<4x8xf32> -> tensor<32xf16>
  return
}

// -----

func.func @transpose_repeated(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [0, 0] is not a permutation of the axes of a rank-2 tensor}}
  // expected-error @+1 {{'tl.transpose' op failed to infer returned types}}
  %0 = tl.transpose %a perm = [0, 0] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @transpose_wrong_length(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [1, 0, 2] is not a permutation of the axes of a rank-2 tensor}}
  // expected-error @+1 {{'tl.transpose' op failed to infer returned types}}
  %0 = tl.transpose %a perm = [1, 0, 2] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @transpose_out_of_range(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{perm [2, 0] is not a permutation of the axes of a rank-2 tensor}}
  // expected-error @+1 {{'tl.transpose' op failed to infer returned types}}
  %0 = tl.transpose %a perm = [2, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @broadcast_to_shape(%a: tensor<3xf32>) {
  // expected-error @+1 {{'tl.broadcast_to' op cannot broadcast shape 3 to 4x8}}
  %0 = tl.broadcast_to %a : tensor<3xf32> -> tensor<4x8xf32>
  return
}

// -----

// broadcast_to never lowers the rank.
func.func @broadcast_to_rank(%a: tensor<2x8xf32>) {
  // expected-error @+1 {{'tl.broadcast_to' op cannot broadcast shape 2x8 to 8}}
  %0 = tl.broadcast_to %a : tensor<2x8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @broadcast_to_element_type(%a: tensor<8xf32>) {
  // expected-error @+1 {{'tl.broadcast_to' op element type 'i32' differs from input's 'f32'}}
  %0 = tl.broadcast_to %a : tensor<8xf32> -> tensor<4x8xi32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+2 {{concat needs at least one input}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = "tl.concat"() <{axis = 0 : i64}> : () -> tensor<0xf32>
  return
}

// -----

func.func @concat_scalars(%a: tensor<f32>) {
  // expected-error @+2 {{cannot concat scalars}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = tl.concat %a, %a axis = 0 : tensor<f32>, tensor<f32> -> tensor<2xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x8xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = tl.concat %a, %a axis = 2 : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<2x16xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+2 {{concat input 1 has shape 8, which does not match 2x8 outside axis 0}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = tl.concat %a, %b axis = 0 : tensor<2x8xf32>, tensor<8xf32> -> tensor<3x8xf32>
  return
}

// -----

func.func @concat_element_type(%a: tensor<2x8xf32>, %b: tensor<2x8xf16>) {
  // expected-error @+2 {{concat input 1 has element type 'f16' but input 0 has 'f32'}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = tl.concat %a, %b axis = 0 : tensor<2x8xf32>, tensor<2x8xf16> -> tensor<4x8xf32>
  return
}

// -----

func.func @concat_extent(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %c: tensor<3x7xf32>) {
  // expected-error @+2 {{concat input 2 has shape 3x7, which does not match 2x8 outside axis 0}}
  // expected-error @+1 {{'tl.concat' op failed to infer returned types}}
  %0 = tl.concat %a, %b, %c axis = -2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<3x7xf32> -> tensor<7x8xf32>
  return
}

// -----

func.func @slice_counts(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice needs 2 offsets, sizes and strides (got 1, 2 and 2)}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [0] sizes = [4, 3] strides = [1, 1] : tensor<4x8xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_box_outside(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 1 (offset 2, size 4, stride 2) is outside the dimension of extent 8}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [0, 2] sizes = [4, 4] strides = [1, 2] : tensor<4x8xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @slice_offset_outside(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 0 (offset 4, size 1, stride 1) is outside the dimension of extent 4}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [4, 0] sizes = [1, 8] strides = [1, 1] : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @slice_negative_offset(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 0 (offset -1, size 1, stride 1) is outside the dimension of extent 4}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [-1, 0] sizes = [1, 8] strides = [1, 1] : tensor<4x8xf32> -> tensor<1x8xf32>
  return
}

// -----

func.func @slice_negative_size(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 1 has size -1; sizes must not be negative}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = "tl.slice"(%a) <{offsets = array<i64: 0, 0>, sizes = array<i64: 4, -1>, strides = array<i64: 1, 1>}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @slice_zero_stride(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 1 has stride 0; strides must be positive}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [0, 0] sizes = [4, 2] strides = [1, 0] : tensor<4x8xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @slice_negative_stride(%a: tensor<4x8xf32>) {
  // expected-error @+2 {{slice of axis 0 has stride -1; strides must be positive}}
  // expected-error @+1 {{'tl.slice' op failed to infer returned types}}
  %0 = tl.slice %a offsets = [3, 0] sizes = [2, 8] strides = [-1, 1] : tensor<4x8xf32> -> tensor<2x8xf32>
  return
}
