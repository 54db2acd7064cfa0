// Shape rules of the tl neural-network ops.
#include "TL/NNShapes.h"

using namespace mlir;
using namespace tlc::tl;

int64_t tlc::tl::windowOutputSize(int64_t in, int64_t kernel, int64_t stride, int64_t padBegin,
                                  int64_t padEnd, int64_t dilation, bool ceilMode) {
  int64_t span = (kernel - 1) * dilation + 1;
  int64_t room = in + padBegin + padEnd - span;
  if (room < 0)
    return -1;
  int64_t out = (ceilMode ? (room + stride - 1) / stride : room / stride) + 1;
  if (ceilMode && (out - 1) * stride >= in + padBegin)
    --out;
  return out;
}

FailureOr<SmallVector<int64_t>>
tlc::tl::window2DOutputShape(ArrayRef<int64_t> hw, ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                             ArrayRef<int64_t> dilations, bool ceilMode, EmitErrorFn emitError) {
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2 || pads.size() != 4) {
    emitError() << "expected 2 kernel sizes, strides and dilations and 4 pads, got "
                << kernel.size() << ", " << strides.size() << ", " << dilations.size()
                << " and " << pads.size();
    return failure();
  }
  for (int i = 0; i < 2; ++i)
    if (kernel[i] <= 0 || strides[i] <= 0 || dilations[i] <= 0) {
      emitError() << "kernel sizes, strides and dilations must be positive, got kernel ["
                  << kernel[0] << ", " << kernel[1] << "] strides [" << strides[0] << ", "
                  << strides[1] << "] dilations [" << dilations[0] << ", " << dilations[1]
                  << "]";
      return failure();
    }
  for (int64_t p : pads)
    if (p < 0) {
      emitError() << "pads must be non-negative, got " << p;
      return failure();
    }
  SmallVector<int64_t> out;
  for (int i = 0; i < 2; ++i) {
    int64_t o = windowOutputSize(hw[i], kernel[i], strides[i], pads[i], pads[i + 2],
                                 dilations[i], ceilMode);
    if (o <= 0) {
      emitError() << "window of " << kernel[i] << " (dilation " << dilations[i]
                  << ") does not fit spatial extent " << hw[i] << " padded by " << pads[i]
                  << " and " << pads[i + 2];
      return failure();
    }
    out.push_back(o);
  }
  return out;
}

FailureOr<RankedTensorType> tlc::tl::conv2dType(RankedTensorType input, RankedTensorType filter,
                                                ArrayRef<int64_t> strides, ArrayRef<int64_t> pads,
                                                ArrayRef<int64_t> dilations, int64_t groups,
                                                EmitErrorFn emitError) {
  if (input.getRank() != 4 || filter.getRank() != 4) {
    emitError() << "expected rank-4 input and filter, got " << formatShape(input.getShape())
                << " and " << formatShape(filter.getShape());
    return failure();
  }
  if (input.getElementType() != filter.getElementType()) {
    emitError() << "input element type " << input.getElementType() << " differs from filter's "
                << filter.getElementType();
    return failure();
  }
  int64_t c = input.getDimSize(1), f = filter.getDimSize(0);
  if (groups <= 0 || c % groups != 0 || f % groups != 0) {
    emitError() << "groups " << groups << " must be positive and divide the " << c
                << " input channels and " << f << " filters";
    return failure();
  }
  if (filter.getDimSize(1) != c / groups) {
    emitError() << "filter has " << filter.getDimSize(1) << " channels per group, expected "
                << c / groups << " (" << c << " input channels / " << groups << " groups)";
    return failure();
  }
  FailureOr<SmallVector<int64_t>> hw =
      window2DOutputShape(input.getShape().drop_front(2), filter.getShape().drop_front(2),
                          strides, pads, dilations, /*ceilMode=*/false, emitError);
  if (failed(hw))
    return failure();
  return RankedTensorType::get({input.getDimSize(0), f, (*hw)[0], (*hw)[1]},
                               input.getElementType());
}

FailureOr<RankedTensorType> tlc::tl::gatherType(RankedTensorType input, RankedTensorType indices,
                                                int64_t axis, EmitErrorFn emitError) {
  int64_t rank = input.getRank();
  if (rank == 0) {
    emitError() << "cannot gather from a rank-0 tensor";
    return failure();
  }
  if (axis < -rank || axis >= rank) {
    emitError() << "axis " << axis << " is out of range for rank " << rank;
    return failure();
  }
  if (axis < 0)
    axis += rank;
  auto it = dyn_cast<IntegerType>(indices.getElementType());
  if (!it || it.getWidth() == 1) {
    emitError() << "indices must be i32 or i64, got " << indices.getElementType();
    return failure();
  }
  SmallVector<int64_t> shape(input.getShape().take_front(axis));
  llvm::append_range(shape, indices.getShape());
  llvm::append_range(shape, input.getShape().drop_front(axis + 1));
  return RankedTensorType::get(shape, input.getElementType());
}

FailureOr<RankedTensorType> tlc::tl::padType(RankedTensorType input, ArrayRef<int64_t> pads,
                                             EmitErrorFn emitError) {
  int64_t rank = input.getRank();
  if ((int64_t)pads.size() != 2 * rank) {
    emitError() << "expected " << 2 * rank << " pads for rank " << rank << ", got "
                << pads.size();
    return failure();
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (pads[d] < 0 || pads[d + rank] < 0) {
      emitError() << "pads must be non-negative, got " << pads[d] << " and " << pads[d + rank]
                  << " for axis " << d;
      return failure();
    }
    shape.push_back(input.getDimSize(d) + pads[d] + pads[d + rank]);
  }
  return RankedTensorType::get(shape, input.getElementType());
}
