// SPIR-V to Metal Shading Language with SPIRV-Cross: every kernel of a module in one MSL source.
#include "targets/metal/SPIRVToMSL.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <spirv_cross/spirv_cross_c.h>

using namespace mlir;

namespace {

/// Metal's buffer argument table has 31 entries per kernel ([[buffer(0)]] to [[buffer(30)]]).
constexpr unsigned kMetalBufferSlots = 31;

/// One SPIRV-Cross context: owns everything the C API returns, collects its error messages.
class CrossContext {
public:
  CrossContext() {
    if (spvc_context_create(&ctx) != SPVC_SUCCESS)
      ctx = nullptr;
    else
      spvc_context_set_error_callback(ctx, &CrossContext::onError, this);
  }
  ~CrossContext() {
    if (ctx)
      spvc_context_destroy(ctx);
  }
  CrossContext(const CrossContext &) = delete;
  CrossContext &operator=(const CrossContext &) = delete;

  spvc_context get() const { return ctx; }
  /// Emits SPIRV-Cross's last message as an error at `loc`, prefixed by `what`.
  LogicalResult fail(Location loc, const llvm::Twine &what) const {
    return emitError(loc) << what << ": "
                          << (lastError.empty() ? std::string("unknown SPIRV-Cross error")
                                                : lastError);
  }

private:
  static void onError(void *self, const char *message) {
    static_cast<CrossContext *>(self)->lastError = message;
  }
  spvc_context ctx = nullptr;
  std::string lastError;
};

/// Translates the entry point `name` alone: SPIRV-Cross emits one entry point per compile.
FailureOr<std::string> translateEntryPoint(CrossContext &cross, spvc_parsed_ir ir,
                                           const char *name, Location loc) {
  // SPIRV-Cross's message says what failed (e.g. "double types are not supported in buffers
  // in MSL."); the step is for the rare failure that has none.
  auto fail = [&](const char *step) -> FailureOr<std::string> {
    return cross.fail(loc, "cannot translate kernel '" + llvm::Twine(name) +
                               "' to MSL with SPIRV-Cross (" + step + ")");
  };
  spvc_compiler compiler;
  // Copy: the parsed module is shared by every entry point's compiler.
  if (spvc_context_create_compiler(cross.get(), SPVC_BACKEND_MSL, ir, SPVC_CAPTURE_MODE_COPY,
                                   &compiler) != SPVC_SUCCESS)
    return fail("create compiler");
  spvc_compiler_options options;
  if (spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_MSL_VERSION,
                                     SPVC_MAKE_MSL_VERSION(tlc::kMSLMajor, tlc::kMSLMinor, 0)) !=
          SPVC_SUCCESS ||
      // Plain C arrays for workgroup memory, not SPIRV-Cross's spvUnsafeArray wrapper with
      // an operator[] per address space.
      spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_MSL_FORCE_NATIVE_ARRAYS,
                                     SPVC_TRUE) != SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS)
    return fail("options");
  if (spvc_compiler_set_entry_point(compiler, name, SpvExecutionModelGLCompute) != SPVC_SUCCESS)
    return fail("entry point");
  // The runtime looks kernels up by the kernel table's names: SPIRV-Cross renames entry
  // points that clash with MSL's reserved words ("main"), which would break that lookup.
  const char *mslName =
      spvc_compiler_get_cleansed_entry_point_name(compiler, name, SpvExecutionModelGLCompute);
  if (!mslName || llvm::StringRef(mslName) != name)
    return emitError(loc) << "kernel '" << name << "' would be named '"
                          << (mslName ? mslName : "") << "' in MSL; rename the model";

  // Argument i at [[buffer(i)]]: without explicit bindings SPIRV-Cross numbers the buffers a
  // kernel uses in order, so an unused argument would shift the rest.
  spvc_set active;
  spvc_resources resources;
  const spvc_reflected_resource *buffers;
  size_t numBuffers;
  if (spvc_compiler_get_active_interface_variables(compiler, &active) != SPVC_SUCCESS ||
      spvc_compiler_create_shader_resources_for_active_variables(compiler, &resources, active) !=
          SPVC_SUCCESS ||
      spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
                                                &buffers, &numBuffers) != SPVC_SUCCESS)
    return fail("reflection");
  for (size_t i = 0; i < numBuffers; ++i) {
    unsigned set =
        spvc_compiler_get_decoration(compiler, buffers[i].id, SpvDecorationDescriptorSet);
    unsigned binding = spvc_compiler_get_decoration(compiler, buffers[i].id, SpvDecorationBinding);
    if (set != 0)
      return emitError(loc) << "kernel '" << name << "' binds a buffer in descriptor set " << set
                            << "; tlc's kernels use set 0 only";
    if (binding >= kMetalBufferSlots)
      return emitError(loc) << "kernel '" << name << "' has a buffer argument at position "
                            << binding << "; a Metal kernel takes at most " << kMetalBufferSlots
                            << " buffers";
    spvc_msl_resource_binding map;
    spvc_msl_resource_binding_init(&map);
    map.stage = SpvExecutionModelGLCompute;
    map.desc_set = set;
    map.binding = binding;
    map.msl_buffer = binding;
    if (spvc_compiler_msl_add_resource_binding(compiler, &map) != SPVC_SUCCESS)
      return fail("resource binding");
  }
  const char *source;
  if (spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS)
    return fail("translation");
  return std::string(source);
}

/// Whether `line` changes the brace depth, ignoring comments (SPIRV-Cross writes no strings).
int braceDelta(llvm::StringRef line) {
  int delta = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line.substr(i).starts_with("//"))
      break;
    if (line.substr(i).starts_with("/*")) {
      size_t end = line.find("*/", i + 2);
      if (end == llvm::StringRef::npos)
        break;
      i = end + 1;
      continue;
    }
    delta += line[i] == '{' ? 1 : line[i] == '}' ? -1 : 0;
  }
  return delta;
}

/// SPIRV-Cross's output as top-level declarations: each preprocessor line, and each block of
/// lines at brace depth 0 that a blank line ends (a struct, a helper, a kernel).
llvm::SmallVector<std::string> splitDeclarations(llvm::StringRef msl) {
  llvm::SmallVector<std::string> decls;
  std::string current;
  int depth = 0;
  auto flush = [&] {
    if (!current.empty())
      decls.push_back(std::move(current));
    current.clear();
  };
  llvm::SmallVector<llvm::StringRef> lines;
  msl.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (depth == 0 && line.trim().empty()) {
      flush();
      continue;
    }
    if (depth == 0 && line.starts_with("#")) {
      flush();
      decls.push_back(line.str() + "\n");
      continue;
    }
    current += line.str() + "\n";
    depth += braceDelta(line);
  }
  flush();
  return decls;
}

} // namespace

FailureOr<std::string> tlc::translateSPIRVToMSL(llvm::ArrayRef<uint32_t> words,
                                                llvm::ArrayRef<std::string> kernels,
                                                Location loc) {
  CrossContext cross;
  if (!cross.get())
    return emitError(loc) << "cannot create a SPIRV-Cross context";
  spvc_parsed_ir ir;
  if (spvc_context_parse_spirv(cross.get(), words.data(), words.size(), &ir) != SPVC_SUCCESS)
    return cross.fail(loc, "SPIRV-Cross cannot parse the kernels' SPIR-V");
  // The module's entry points (from a throwaway compiler: reflection needs one) must be the
  // kernels asked for: a kernel left out would only fail at run time, on a Mac.
  spvc_compiler reflector;
  const spvc_entry_point *entries;
  size_t numEntries;
  if (spvc_context_create_compiler(cross.get(), SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_COPY,
                                   &reflector) != SPVC_SUCCESS ||
      spvc_compiler_get_entry_points(reflector, &entries, &numEntries) != SPVC_SUCCESS)
    return cross.fail(loc, "SPIRV-Cross cannot list the kernels");
  llvm::StringSet<> entryNames;
  for (size_t i = 0; i < numEntries; ++i) {
    if (entries[i].execution_model != SpvExecutionModelGLCompute)
      return emitError(loc) << "SPIR-V entry point '" << entries[i].name
                            << "' is not a compute kernel";
    entryNames.insert(entries[i].name);
  }
  for (const std::string &kernel : kernels)
    if (!entryNames.contains(kernel))
      return emitError(loc) << "kernel '" << kernel << "' is not an entry point of the SPIR-V";
  if (entryNames.size() != kernels.size())
    return emitError(loc) << "the SPIR-V has " << entryNames.size() << " entry points, expected "
                          << kernels.size();

  // Each kernel's translation repeats the module's types (struct _7 { ... };) and the helpers
  // it needs. All come from one module, so a declaration's text is its meaning: keep the first
  // copy of each, in order (a later kernel's new helper still precedes that kernel).
  std::string msl = "// Generated by tlc: SPIR-V translated to MSL " + std::to_string(kMSLMajor) +
                    "." + std::to_string(kMSLMinor) +
                    " by SPIRV-Cross. Kernel argument i is [[buffer(i)]].\n\n";
  llvm::StringSet<> seen;
  bool afterDirective = false;
  for (const std::string &name : kernels) {
    FailureOr<std::string> kernel = translateEntryPoint(cross, ir, name.c_str(), loc);
    if (failed(kernel))
      return failure();
    for (std::string &decl : splitDeclarations(*kernel)) {
      if (!seen.insert(decl).second)
        continue;
      bool directive = decl.front() == '#';
      if (afterDirective && !directive)
        msl += "\n";
      msl += decl;
      if (!directive)
        msl += "\n";
      afterDirective = directive;
    }
  }
  return msl;
}
