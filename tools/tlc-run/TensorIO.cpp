// Host tensors for tlc-run: dtypes, .npy and ONNX TensorProto reading, .npy writing.
#include "TensorIO.h"

#include <onnx/onnx_pb.h>

#include <sys/stat.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

using namespace tlcrun;

bool tlcrun::parseDType(const std::string &n, DType &out) {
  static const std::pair<const char *, DType> names[] = {
      {"f32", DType::F32}, {"f64", DType::F64}, {"f16", DType::F16}, {"bf16", DType::BF16},
      {"i32", DType::I32}, {"i64", DType::I64}, {"i1", DType::I1},   {"i8", DType::I8},
      {"u8", DType::U8},   {"i16", DType::I16}, {"u16", DType::U16}, {"u32", DType::U32}};
  for (auto &[s, t] : names)
    if (n == s) {
      out = t;
      return true;
    }
  return false;
}

const char *tlcrun::dtypeName(DType t) {
  switch (t) {
  case DType::F32: return "f32";
  case DType::F64: return "f64";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::U8: return "u8";
  case DType::I16: return "i16";
  case DType::U16: return "u16";
  case DType::U32: return "u32";
  }
  return "?";
}

size_t tlcrun::dtypeSize(DType t) {
  switch (t) {
  case DType::F64: case DType::I64: return 8;
  case DType::F32: case DType::I32: case DType::U32: return 4;
  case DType::F16: case DType::BF16: case DType::I16: case DType::U16: return 2;
  case DType::I1: case DType::I8: case DType::U8: return 1;
  }
  return 0;
}

bool tlcrun::checkedNumel(const std::vector<int64_t> &shape, const std::string &what,
                          int64_t &out, std::string &error) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) {
      error = what + " has a negative dimension (" + std::to_string(d) + ")";
      return false;
    }
    if (d != 0 && n > kMaxElements / d) {
      error = what + " has too many elements (more than 2^40)";
      return false;
    }
    n *= d;
  }
  out = n;
  return true;
}

bool tlcrun::parseDim(const std::string &s, int64_t &out) {
  if (s.empty())
    return false;
  int64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9' || v > (INT64_MAX - (c - '0')) / 10)
      return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

static double halfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(mant, -24);
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

double Tensor::at(int64_t i) const {
  const uint8_t *p = data.data() + i * dtypeSize(dtype);
  switch (dtype) {
  case DType::F32: { float v; std::memcpy(&v, p, 4); return v; }
  case DType::F64: { double v; std::memcpy(&v, p, 8); return v; }
  case DType::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::I64: { int64_t v; std::memcpy(&v, p, 8); return (double)v; }
  case DType::I1: return *p != 0;
  case DType::F16: { uint16_t v; std::memcpy(&v, p, 2); return halfToDouble(v); }
  case DType::I8: return static_cast<int8_t>(*p);
  case DType::U8: return *p;
  case DType::I16: { int16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::U16: { uint16_t v; std::memcpy(&v, p, 2); return v; }
  case DType::U32: { uint32_t v; std::memcpy(&v, p, 4); return v; }
  case DType::BF16: {
    uint16_t v; std::memcpy(&v, p, 2);
    uint32_t bits = uint32_t(v) << 16; float f; std::memcpy(&f, &bits, 4); return f;
  }
  }
  return 0;
}

std::string Tensor::shapeString() const {
  if (shape.empty())
    return "scalar";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

static bool readFile(const std::string &path, std::string &bytes, std::string &error) {
  // Bounded: an endless device (/dev/zero) or a huge file would otherwise be read until memory
  // runs out.
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    error = "cannot open '" + path + "'";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    error = "'" + path + "' is not a regular file";
    return false;
  }
  if ((uint64_t)st.st_size > kMaxFileBytes) {
    error = "'" + path + "' is larger than 16 GiB (" + std::to_string(st.st_size) + " bytes)";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  bytes = ss.str();
  return true;
}

static bool loadNpy(const std::string &path, const std::string &bytes, Tensor &out,
                    std::string &error) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0) {
    error = "'" + path + "' is not a .npy file";
    return false;
  }
  int major = (uint8_t)bytes[6];
  size_t headerLen, offset;
  if (major == 1) {
    headerLen = (uint8_t)bytes[8] | ((uint8_t)bytes[9] << 8);
    offset = 10;
  } else {
    if (bytes.size() < 12) {
      error = "'" + path + "' is truncated";
      return false;
    }
    headerLen = (uint8_t)bytes[8] | ((uint8_t)bytes[9] << 8) | ((uint8_t)bytes[10] << 16) |
                ((size_t)(uint8_t)bytes[11] << 24);
    offset = 12;
  }
  if (offset + headerLen > bytes.size()) {
    error = "'" + path + "' is truncated";
    return false;
  }
  std::string header = bytes.substr(offset, headerLen);
  auto field = [&](const std::string &key) {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos)
      return std::string();
    size_t colon = header.find(':', k);
    return colon == std::string::npos ? std::string() : header.substr(colon + 1);
  };
  std::string descr = field("descr"), order = field("fortran_order"), shape = field("shape");
  size_t q1 = descr.find('\''), q2 = descr.find('\'', q1 + 1);
  if (q1 == std::string::npos || q2 == std::string::npos) {
    error = "'" + path + "' has a malformed header";
    return false;
  }
  descr = descr.substr(q1 + 1, q2 - q1 - 1);
  static const std::pair<const char *, DType> descrs[] = {
      {"<f4", DType::F32}, {"<f8", DType::F64}, {"<f2", DType::F16}, {"<i4", DType::I32},
      {"<i8", DType::I64}, {"|b1", DType::I1}, {"|u1", DType::U8}, {"<u2", DType::U16},
      {"|i1", DType::I8},  {"<i2", DType::I16}, {"<u4", DType::U32}};
  bool known = false;
  for (auto &[d, t] : descrs)
    if (descr == d) {
      out.dtype = t;
      known = true;
    }
  if (!known) {
    error = "'" + path + "' has unsupported dtype '" + descr + "'";
    return false;
  }
  if (order.find("True") != std::string::npos && order.find("True") < order.find(',')) {
    error = "'" + path + "' is in Fortran order";
    return false;
  }
  size_t lp = shape.find('('), rp = shape.find(')');
  if (lp == std::string::npos || rp == std::string::npos) {
    error = "'" + path + "' has a malformed shape";
    return false;
  }
  out.shape.clear();
  std::stringstream dims(shape.substr(lp + 1, rp - lp - 1));
  std::string item;
  while (std::getline(dims, item, ',')) {
    size_t b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
    if (b == std::string::npos)
      continue;
    int64_t d;
    if (!parseDim(item.substr(b, e - b + 1), d)) {
      error = "'" + path + "' has a malformed shape (dimension '" + item + "')";
      return false;
    }
    out.shape.push_back(d);
  }
  int64_t numel;
  if (!checkedNumel(out.shape, "'" + path + "'", numel, error))
    return false;
  size_t dataOffset = offset + headerLen;
  size_t need = numel * dtypeSize(out.dtype);
  if (bytes.size() - dataOffset != need) {
    error = "'" + path + "' has " + std::to_string(bytes.size() - dataOffset) +
            " bytes of data, its header says " + out.shapeString() + " (" +
            std::to_string(need) + " bytes)";
    return false;
  }
  out.data.assign(bytes.begin() + dataOffset, bytes.begin() + dataOffset + need);
  return true;
}

static bool loadPb(const std::string &path, const std::string &bytes, Tensor &out,
                   std::string &error) {
  onnx::TensorProto t;
  if (!t.ParseFromString(bytes)) {
    error = "'" + path + "' is neither a .npy file nor an ONNX TensorProto";
    return false;
  }
  out.shape.assign(t.dims().begin(), t.dims().end());
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT: out.dtype = DType::F32; break;
  case onnx::TensorProto::DOUBLE: out.dtype = DType::F64; break;
  case onnx::TensorProto::FLOAT16: out.dtype = DType::F16; break;
  case onnx::TensorProto::BFLOAT16: out.dtype = DType::BF16; break;
  case onnx::TensorProto::INT32: out.dtype = DType::I32; break;
  case onnx::TensorProto::INT64: out.dtype = DType::I64; break;
  case onnx::TensorProto::BOOL: out.dtype = DType::I1; break;
  case onnx::TensorProto::UINT16: out.dtype = DType::U16; break;
  case onnx::TensorProto::INT8: out.dtype = DType::I8; break;
  case onnx::TensorProto::UINT8: out.dtype = DType::U8; break;
  case onnx::TensorProto::INT16: out.dtype = DType::I16; break;
  case onnx::TensorProto::UINT32: out.dtype = DType::U32; break;
  default:
    error = "'" + path + "' has unsupported data type " + std::to_string(t.data_type());
    return false;
  }
  int64_t numel;
  if (!checkedNumel(out.shape, "'" + path + "'", numel, error))
    return false;
  size_t n = numel, es = dtypeSize(out.dtype);
  // The dims are checked against the data before anything is allocated from them.
  if (t.has_raw_data()) {
    if (t.raw_data().size() != n * es) {
      error = "'" + path + "' has " + std::to_string(t.raw_data().size()) +
              " bytes of data, expected " + std::to_string(n * es);
      return false;
    }
    out.data.assign(t.raw_data().begin(), t.raw_data().end());
    return true;
  }
  size_t have = 0;
  switch (out.dtype) {
  case DType::F32: have = t.float_data_size(); break;
  case DType::F64: have = t.double_data_size(); break;
  case DType::I64: have = t.int64_data_size(); break;
  case DType::U32: have = t.uint64_data_size(); break;
  default: have = t.int32_data_size(); break;
  }
  if (have != n) {
    error = "'" + path + "' has " + std::to_string(have) + " values, expected " +
            std::to_string(n);
    return false;
  }
  out.data.assign(n * es, 0);
  if (n == 0) // an empty repeated field has no array: memcpy from null is undefined
    return true;
  uint8_t *p = out.data.data();
  switch (out.dtype) {
  case DType::F32:
    std::memcpy(p, t.float_data().data(), n * 4);
    break;
  case DType::F64:
    std::memcpy(p, t.double_data().data(), n * 8);
    break;
  case DType::I64:
    std::memcpy(p, t.int64_data().data(), n * 8);
    break;
  case DType::I32:
    std::memcpy(p, t.int32_data().data(), n * 4);
    break;
  case DType::U32:
    for (size_t i = 0; i < n; ++i) {
      uint32_t v = static_cast<uint32_t>(t.uint64_data(i));
      std::memcpy(p + 4 * i, &v, 4);
    }
    break;
  case DType::I1:
    for (size_t i = 0; i < n; ++i)
      p[i] = t.int32_data(i) != 0;
    break;
  case DType::I8: case DType::U8: case DType::I16: case DType::F16: case DType::BF16:
  case DType::U16:
    // One element per int32_data entry: its low bytes (little-endian hosts).
    for (size_t i = 0; i < n; ++i) {
      int32_t v = t.int32_data(i);
      std::memcpy(p + es * i, &v, es);
    }
    break;
  }
  return true;
}

bool tlcrun::parseTensor(const std::string &path, const std::string &bytes, Tensor &out,
                         std::string &error) {
  if (bytes.compare(0, 6, "\x93NUMPY") == 0)
    return loadNpy(path, bytes, out, error);
  return loadPb(path, bytes, out, error);
}

bool tlcrun::loadTensor(const std::string &path, Tensor &out, std::string &error) {
  std::string bytes;
  return readFile(path, bytes, error) && parseTensor(path, bytes, out, error);
}

bool tlcrun::saveNpy(const std::string &path, const Tensor &t, std::string &error) {
  const char *descr = "<f4";
  switch (t.dtype) {
  case DType::F32: descr = "<f4"; break;
  case DType::F64: descr = "<f8"; break;
  case DType::F16: descr = "<f2"; break;
  case DType::BF16: case DType::U16: descr = "<u2"; break;
  case DType::I32: descr = "<i4"; break;
  case DType::I64: descr = "<i8"; break;
  case DType::I1: descr = "|b1"; break;
  case DType::I8: descr = "|i1"; break;
  case DType::U8: descr = "|u1"; break;
  case DType::I16: descr = "<i2"; break;
  case DType::U32: descr = "<u4"; break;
  }
  std::string shape = "(";
  for (int64_t d : t.shape)
    shape += std::to_string(d) + ",";
  if (t.shape.size() > 1)
    shape.pop_back();
  shape += ")";
  std::string header =
      "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::ofstream os(path, std::ios::binary);
  if (!os) {
    error = "cannot write '" + path + "'";
    return false;
  }
  os.write("\x93NUMPY\x01\x00", 8);
  uint16_t len = header.size();
  os.put(len & 0xff);
  os.put(len >> 8);
  os << header;
  os.write(reinterpret_cast<const char *>(t.data.data()), t.data.size());
  return true;
}

void tlcrun::asModelType(Tensor &file, DType model) {
  if (file.dtype == DType::U16 && model == DType::BF16)
    file.dtype = DType::BF16;
  if (file.dtype == DType::U8 && model == DType::I1) // numpy's uint8 masks
    file.dtype = DType::I1;
}

void tlcrun::fillRandom(Tensor &t, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int64_t n = t.numel();
  t.data.assign(n * dtypeSize(t.dtype), 0);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (int64_t i = 0; i < n; ++i) {
    uint8_t *p = t.data.data() + i * dtypeSize(t.dtype);
    switch (t.dtype) {
    case DType::F32: { float v = uni(rng); std::memcpy(p, &v, 4); break; }
    case DType::F64: { double v = uni(rng); std::memcpy(p, &v, 8); break; }
    case DType::F16: case DType::BF16: {
      float v = uni(rng); uint32_t bits; std::memcpy(&bits, &v, 4);
      uint16_t h = t.dtype == DType::BF16 ? uint16_t(bits >> 16) : uint16_t(0x3c00);
      std::memcpy(p, &h, 2);
      break;
    }
    case DType::I32: { int32_t v = rng() % 10; std::memcpy(p, &v, 4); break; }
    case DType::I64: { int64_t v = rng() % 10; std::memcpy(p, &v, 8); break; }
    case DType::I1: *p = rng() & 1; break;
    case DType::I8: case DType::U8: *p = static_cast<uint8_t>(rng() % 10); break;
    case DType::I16: case DType::U16: { uint16_t v = rng() % 10; std::memcpy(p, &v, 2); break; }
    case DType::U32: { uint32_t v = rng() % 10; std::memcpy(p, &v, 4); break; }
    }
  }
}
