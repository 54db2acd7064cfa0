// Reading .npy files: magic, versions 1-3, the header dict, and the little-endian data.
#include "Npy.h"

#include "Source.h"

#include "compiler/InputFile.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace tlc::frontend;

namespace {
/// Just enough of a Python-literal reader for the header dict numpy writes.
class HeaderReader {
public:
  explicit HeaderReader(llvm::StringRef text) : text(text) {}

  LogicalResult read(NpyHeader &header, std::string &error) {
    bool haveDescr = false, haveOrder = false, haveShape = false;
    if (!eat('{'))
      return fail(error, "the header is not a dict");
    while (!eat('}')) {
      std::string key;
      if (failed(readString(key)) || !eat(':'))
        return fail(error, "the header dict is malformed");
      if (key == "descr") {
        if (failed(readString(header.descr)))
          return fail(error, "'descr' is not a string");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (consumeWord("True"))
          header.fortranOrder = true;
        else if (consumeWord("False"))
          header.fortranOrder = false;
        else
          return fail(error, "'fortran_order' is not True or False");
        haveOrder = true;
      } else if (key == "shape") {
        if (failed(readShape(header.shape)))
          return fail(error, "'shape' is not a tuple of non-negative integers");
        haveShape = true;
      } else {
        return fail(error, "the header has an unknown key '" + key + "'");
      }
      if (!eat(',')) {
        if (!eat('}'))
          return fail(error, "the header dict is malformed");
        break;
      }
    }
    if (!haveDescr || !haveOrder || !haveShape)
      return fail(error, "the header lacks 'descr', 'fortran_order' or 'shape'");
    return success();
  }

private:
  static LogicalResult fail(std::string &error, std::string message) {
    error = std::move(message);
    return failure();
  }
  void skipSpace() {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\n' || text.front() == '\t'))
      text = text.drop_front();
  }
  bool eat(char c) {
    skipSpace();
    if (text.empty() || text.front() != c)
      return false;
    text = text.drop_front();
    return true;
  }
  bool consumeWord(llvm::StringRef word) {
    skipSpace();
    return text.consume_front(word);
  }
  LogicalResult readString(std::string &out) {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return failure();
    char quote = text.front();
    size_t close = text.find(quote, 1);
    if (close == llvm::StringRef::npos)
      return failure();
    out = text.substr(1, close - 1).str();
    text = text.drop_front(close + 1);
    return success();
  }
  LogicalResult readShape(llvm::SmallVectorImpl<int64_t> &shape) {
    if (!eat('('))
      return failure();
    while (!eat(')')) {
      skipSpace();
      size_t n = 0;
      while (n < text.size() && llvm::isDigit(text[n]))
        ++n;
      int64_t dim;
      if (n == 0 || text.substr(0, n).getAsInteger(10, dim))
        return failure();
      text = text.drop_front(n);
      shape.push_back(dim);
      if (!eat(',')) {
        if (!eat(')'))
          return failure();
        break;
      }
    }
    return success();
  }

  llvm::StringRef text;
};

std::string formatNpyShape(llvm::ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string formatDeclared(RankedTensorType type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << typeName(type.getElementType()) << "[";
  llvm::interleaveComma(type.getShape(), os);
  os << "]";
  return s;
}

/// The element type a supported descr denotes (null if unsupported).
Type descrType(llvm::StringRef descr, MLIRContext *ctx) {
  Builder b(ctx);
  if (descr == "<f2") return b.getF16Type();
  if (descr == "<f4") return b.getF32Type();
  if (descr == "<f8") return b.getF64Type();
  if (descr == "<i4") return b.getI32Type();
  if (descr == "<i8") return b.getI64Type();
  if (descr == "|b1") return b.getI1Type();
  return {};
}
} // namespace

FailureOr<NpyHeader> tlc::frontend::parseNpyHeader(llvm::StringRef bytes, std::string &error) {
  if (!bytes.starts_with("\x93NUMPY")) {
    error = "it is not a .npy file (bad magic)";
    return failure();
  }
  if (bytes.size() < 10) {
    error = "it is truncated (in the header)";
    return failure();
  }
  uint8_t major = bytes[6], minor = bytes[7];
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (major < 1 || major > 3) {
    error = "it has unsupported format version " + std::to_string(major) + "." +
            std::to_string(minor);
    return failure();
  }
  if (bytes.size() < 8 + lengthBytes) {
    error = "it is truncated (in the header)";
    return failure();
  }
  const char *p = bytes.data() + 8;
  size_t headerLen = lengthBytes == 2 ? llvm::support::endian::read16le(p)
                                      : llvm::support::endian::read32le(p);
  size_t start = 8 + lengthBytes;
  if (headerLen > bytes.size() - start) {
    error = "it is truncated (in the header)";
    return failure();
  }
  NpyHeader header;
  header.dataOffset = start + headerLen;
  if (failed(HeaderReader(bytes.substr(start, headerLen)).read(header, error)))
    return failure();
  return header;
}

FailureOr<DenseElementsAttr>
tlc::frontend::loadNpy(llvm::StringRef path, llvm::StringRef displayPath,
                       RankedTensorType declared, llvm::StringRef what,
                       llvm::function_ref<InFlightDiagnostic()> emitError) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = readInputFile(path, displayPath, error);
  if (!file) {
    emitError() << error;
    return failure();
  }
  llvm::StringRef bytes = file->getBuffer();
  FailureOr<NpyHeader> header = parseNpyHeader(bytes, error);
  if (failed(header)) {
    emitError() << "cannot load '" << displayPath << "': " << error;
    return failure();
  }
  if (header->fortranOrder) {
    emitError() << "cannot load '" << displayPath
                << "': it is in Fortran order; only C order is supported";
    return failure();
  }
  Type elementType = descrType(header->descr, declared.getContext());
  if (!elementType) {
    emitError() << "cannot load '" << displayPath << "': unsupported dtype '" << header->descr
                << "' (supported: <f2 <f4 <f8 <i4 <i8 |b1)";
    return failure();
  }
  if (elementType != declared.getElementType()) {
    emitError() << "'" << displayPath << "' has dtype '" << header->descr << "' (" << typeName(elementType)
                << ") but " << what << " is declared " << formatDeclared(declared);
    return failure();
  }
  if (llvm::ArrayRef<int64_t>(header->shape) != declared.getShape()) {
    emitError() << "'" << displayPath << "' has shape " << formatNpyShape(header->shape) << " but "
                << what << " is declared " << formatDeclared(declared);
    return failure();
  }

  int64_t itemSize = elementType.isInteger(1) ? 1 : elementType.getIntOrFloatBitWidth() / 8;
  uint64_t expected = static_cast<uint64_t>(declared.getNumElements()) * itemSize;
  uint64_t available = bytes.size() - header->dataOffset;
  if (available != expected) {
    emitError() << "cannot load '" << displayPath << "': expected " << expected
                << " bytes of data but the file has " << available;
    return failure();
  }
  llvm::ArrayRef<char> data(bytes.data() + header->dataOffset, expected);
  if (elementType.isInteger(1)) {
    llvm::SmallVector<bool> bools;
    bools.reserve(expected);
    for (char c : data)
      bools.push_back(c != 0);
    return DenseElementsAttr::get(declared, llvm::ArrayRef<bool>(bools));
  }
  static_assert(llvm::endianness::native == llvm::endianness::little,
                "npy data is read as little-endian");
  return DenseElementsAttr::getFromRawBuffer(declared, data);
}
