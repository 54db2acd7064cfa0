// Structure-aware mutation of ONNX models for the fuzz-onnx harness: edits that keep the
// protobuf well-formed, so the fuzzer reaches the validation layer and the importer instead
// of stopping at the protobuf parser.
#ifndef TLC_TEST_FUZZ_ONNXMUTATOR_H
#define TLC_TEST_FUZZ_ONNXMUTATOR_H

#include <onnx/onnx_pb.h>

#include <random>

namespace tlcfuzz {

/// Applies one to three random edits to `model`.
void mutateModel(onnx::ModelProto &model, std::mt19937_64 &rng);

} // namespace tlcfuzz

#endif // TLC_TEST_FUZZ_ONNXMUTATOR_H
