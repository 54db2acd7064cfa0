// Host tensors for tlc-run: dtypes, .npy and ONNX TensorProto (.pb) reading, .npy writing.
#ifndef TLC_TOOLS_TLCRUN_TENSORIO_H
#define TLC_TOOLS_TLCRUN_TENSORIO_H

#include <cstdint>
#include <string>
#include <vector>

namespace tlcrun {

/// U16: 16-bit unsigned integers, in files only: ONNX's test data stores bfloat16 tensors as
/// uint16 bit patterns (and `--save` writes bf16 as numpy's <u2); `asModelType` reads them as
/// the model's bf16.
/// Numbered as tlc_dtype. A U16 file also feeds a BF16 input (the bits of bfloat16 data).
enum class DType { F32, F64, F16, BF16, I32, I64, I1, I8, U8, I16, U16, U32 };

/// Parses a descriptor dtype name ("f32", "i64", ...); false if unknown.
bool parseDType(const std::string &name, DType &out);
const char *dtypeName(DType t);
size_t dtypeSize(DType t);

/// The most elements a tensor may have (the compiler's limit too: 2^40).
constexpr int64_t kMaxElements = int64_t(1) << 40;
/// The largest tensor file tlc-run reads (16 GiB); larger or non-regular files are refused.
constexpr uint64_t kMaxFileBytes = uint64_t(1) << 34;

/// The element count of `shape`; false (with `error` naming `what`) if a dimension is negative
/// or the count exceeds kMaxElements.
bool checkedNumel(const std::vector<int64_t> &shape, const std::string &what, int64_t &out,
                  std::string &error);
/// Parses a decimal dimension; false if `s` is not a non-negative integer that fits int64_t.
bool parseDim(const std::string &s, int64_t &out);

struct Tensor {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data; // row-major, dtypeSize(dtype) bytes per element

  int64_t numel() const;
  /// Element `i` as a double (f16/bf16 decoded, booleans 0/1).
  double at(int64_t i) const;
  std::string shapeString() const;
};

/// `file` (read for a model tensor of type `model`) as that type where the bits mean it: uint16
/// data for a bf16 tensor. Other pairs are left for the caller's type check.
void asModelType(Tensor &file, DType model);

/// Loads `path` (.npy, or anything else as an ONNX TensorProto) into `out`; on failure returns
/// false with `error` set.
bool loadTensor(const std::string &path, Tensor &out, std::string &error);
/// loadTensor on the file's contents `bytes` (messages name `path`).
bool parseTensor(const std::string &path, const std::string &bytes, Tensor &out,
                 std::string &error);
/// Writes `t` as a .npy file.
bool saveNpy(const std::string &path, const Tensor &t, std::string &error);
/// Fills `t` (shape and dtype set) with seeded values: floats uniform in [-1, 1), integers in
/// [0, 10), booleans 0/1.
void fillRandom(Tensor &t, uint64_t seed);

} // namespace tlcrun

#endif // TLC_TOOLS_TLCRUN_TENSORIO_H
