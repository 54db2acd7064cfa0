// The one einsum engine: equation parsing, label resolution and indexing maps.
#include "TL/Einsum.h"

#include "TL/Shapes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tlc::tl;

namespace {
/// One side of an equation term: explicit labels plus where `...` sits (if present).
struct Term {
  SmallVector<char> labels; // labels in order; '.' marks the ellipsis position once
  bool hasEllipsis = false;
};

bool isLabel(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

FailureOr<Term> parseTerm(StringRef text, StringRef what, EmitErrorFn emitError) {
  Term term;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == ' ')
      continue;
    if (c == '.') {
      if (!text.substr(i).starts_with("...")) {
        emitError() << "einsum " << what << " has a '.' that is not part of '...'";
        return failure();
      }
      if (term.hasEllipsis) {
        emitError() << "einsum " << what << " has more than one '...'";
        return failure();
      }
      term.hasEllipsis = true;
      term.labels.push_back('.');
      i += 2;
      continue;
    }
    if (!isLabel(c)) {
      emitError() << "einsum " << what << " has invalid character '" << c
                  << "' (labels are letters)";
      return failure();
    }
    term.labels.push_back(c);
  }
  return term;
}
} // namespace

SmallVector<int64_t> EinsumSpec::resultShape() const {
  SmallVector<int64_t> shape;
  for (int64_t d : resultDims)
    shape.push_back(dimSizes[d]);
  return shape;
}

SmallVector<AffineMap> EinsumSpec::indexingMaps(MLIRContext *ctx) const {
  SmallVector<AffineMap> maps;
  auto toMap = [&](ArrayRef<int64_t> dims) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d : dims)
      exprs.push_back(d == kBroadcast ? getAffineConstantExpr(0, ctx) : getAffineDimExpr(d, ctx));
    return AffineMap::get(numDims(), 0, exprs, ctx);
  };
  for (const auto &dims : operandDims)
    maps.push_back(toMap(dims));
  maps.push_back(toMap(resultDims));
  return maps;
}

int64_t EinsumSpec::iterationCount() const {
  int64_t n = 1;
  for (int64_t s : dimSizes)
    n *= s;
  return n;
}

FailureOr<EinsumSpec> tlc::tl::parseEinsum(StringRef equation, ArrayRef<ArrayRef<int64_t>> shapes,
                                           EmitErrorFn emitError) {
  StringRef lhs = equation, rhs;
  bool explicitOutput = false;
  if (size_t arrow = equation.find("->"); arrow != StringRef::npos) {
    lhs = equation.substr(0, arrow);
    rhs = equation.substr(arrow + 2);
    explicitOutput = true;
    if (rhs.contains("->")) {
      emitError() << "einsum equation '" << equation << "' has more than one '->'";
      return failure();
    }
  }
  SmallVector<StringRef> termTexts;
  lhs.split(termTexts, ',');
  if (termTexts.size() != shapes.size()) {
    emitError() << "einsum equation '" << equation << "' has " << termTexts.size()
                << " operand term(s) but " << shapes.size() << " operand(s) were given";
    return failure();
  }

  // Resolve each operand's labels; the ellipsis covers the axes the labels leave over.
  SmallVector<Term> terms;
  int64_t ellipsisRank = 0;
  for (auto [i, text] : llvm::enumerate(termTexts)) {
    std::string what = "operand " + std::to_string(i);
    FailureOr<Term> term = parseTerm(text, what, emitError);
    if (failed(term))
      return failure();
    int64_t named = term->labels.size() - (term->hasEllipsis ? 1 : 0);
    int64_t rank = shapes[i].size();
    if (term->hasEllipsis ? named > rank : named != rank) {
      emitError() << "einsum " << what << " term '" << text.trim() << "' has " << named
                  << " label(s) but the operand has rank " << rank;
      return failure();
    }
    if (term->hasEllipsis)
      ellipsisRank = std::max(ellipsisRank, rank - named);
    terms.push_back(*term);
  }

  // Labels: extent and number of occurrences across operands. Ellipsis axes are tracked apart.
  llvm::SmallDenseMap<char, int64_t> extent, count;
  SmallVector<char> firstOrder;
  SmallVector<int64_t> ellipsisExtent(ellipsisRank, 1);
  for (auto [i, term] : llvm::enumerate(terms)) {
    ArrayRef<int64_t> shape = shapes[i];
    int64_t named = term.labels.size() - (term.hasEllipsis ? 1 : 0);
    int64_t opEllipsis = shape.size() - named;
    int64_t axis = 0;
    for (char l : term.labels) {
      if (l == '.') {
        for (int64_t e = 0; e < opEllipsis; ++e) {
          int64_t size = shape[axis + e];
          int64_t &slot = ellipsisExtent[ellipsisRank - opEllipsis + e];
          if (size != 1 && slot != 1 && size != slot) {
            emitError() << "einsum '...' dimensions do not broadcast: extent " << size
                        << " of operand " << i << " against " << slot;
            return failure();
          }
          if (size != 1)
            slot = size;
        }
        axis += opEllipsis;
        continue;
      }
      int64_t size = shape[axis++];
      auto [it, inserted] = extent.try_emplace(l, size);
      if (inserted)
        firstOrder.push_back(l);
      else if (it->second != size) {
        emitError() << "einsum label '" << l << "' has extent " << size << " in operand " << i
                    << " but extent " << it->second << " where it first appears";
        return failure();
      }
      ++count[l];
    }
  }

  // The output term: explicit, or numpy's implicit rule (ellipsis, then labels seen once, sorted).
  Term out;
  if (explicitOutput) {
    FailureOr<Term> parsed = parseTerm(rhs, "output", emitError);
    if (failed(parsed))
      return failure();
    out = *parsed;
    llvm::SmallDenseSet<char> seen;
    for (char l : out.labels) {
      if (l == '.')
        continue;
      if (!extent.count(l)) {
        emitError() << "einsum output label '" << l << "' does not appear in any operand";
        return failure();
      }
      if (!seen.insert(l).second) {
        emitError() << "einsum output label '" << l << "' appears more than once";
        return failure();
      }
    }
    if (ellipsisRank > 0 && !out.hasEllipsis) {
      // Summing over broadcast dimensions implicitly is ambiguous; require them spelled out.
      emitError() << "einsum output must contain '...' because the operands do";
      return failure();
    }
  } else {
    if (ellipsisRank > 0 || llvm::any_of(terms, [](const Term &t) { return t.hasEllipsis; })) {
      out.hasEllipsis = true;
      out.labels.push_back('.');
    }
    SmallVector<char> once;
    for (char l : firstOrder)
      if (count[l] == 1)
        once.push_back(l);
    llvm::sort(once);
    out.labels.append(once.begin(), once.end());
  }

  // Loop dimensions: output axes first, then summed-out labels in order of first appearance.
  EinsumSpec spec;
  llvm::SmallDenseMap<char, int64_t> dimOf;
  SmallVector<int64_t> ellipsisDims;
  for (char l : out.labels) {
    if (l == '.') {
      for (int64_t e = 0; e < ellipsisRank; ++e) {
        ellipsisDims.push_back(spec.dimSizes.size());
        spec.resultDims.push_back(spec.dimSizes.size());
        spec.dimSizes.push_back(ellipsisExtent[e]);
      }
      continue;
    }
    dimOf[l] = spec.dimSizes.size();
    spec.resultDims.push_back(spec.dimSizes.size());
    spec.dimSizes.push_back(extent[l]);
  }
  spec.numResultDims = spec.dimSizes.size();
  for (char l : firstOrder) {
    if (dimOf.count(l))
      continue;
    dimOf[l] = spec.dimSizes.size();
    spec.dimSizes.push_back(extent[l]);
  }

  for (auto [i, term] : llvm::enumerate(terms)) {
    ArrayRef<int64_t> shape = shapes[i];
    int64_t named = term.labels.size() - (term.hasEllipsis ? 1 : 0);
    int64_t opEllipsis = shape.size() - named;
    SmallVector<int64_t> dims;
    int64_t axis = 0;
    for (char l : term.labels) {
      if (l != '.') {
        dims.push_back(dimOf[l]);
        ++axis;
        continue;
      }
      for (int64_t e = 0; e < opEllipsis; ++e) {
        int64_t d = ellipsisDims[ellipsisRank - opEllipsis + e];
        dims.push_back(shape[axis + e] == 1 && spec.dimSizes[d] != 1 ? EinsumSpec::kBroadcast : d);
      }
      axis += opEllipsis;
    }
    spec.operandDims.push_back(std::move(dims));
  }
  return spec;
}
