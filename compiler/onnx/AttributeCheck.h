// Node attributes against ONNX's operator schemas and the ranges converters rely on.
#ifndef TLC_COMPILER_ONNX_ATTRIBUTECHECK_H
#define TLC_COMPILER_ONNX_ATTRIBUTECHECK_H

#include "llvm/ADT/SmallVector.h"

#include <onnx/onnx_pb.h>
#include <string>

namespace tlc::onnx_import {

/// Appends a problem for each required attribute of `node` that is missing, each attribute of
/// another type than its schema declares (e.g. `axis` given as a string), and each window or
/// block size out of range (strides, dilations, kernel_shape, group, blocksize below 1; pads
/// below 0). Converters read attributes without checking them again.
void checkNodeAttributes(const onnx::NodeProto &node, int64_t opset,
                         llvm::SmallVectorImpl<std::string> &problems);

} // namespace tlc::onnx_import

#endif // TLC_COMPILER_ONNX_ATTRIBUTECHECK_H
