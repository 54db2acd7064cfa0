// The model descriptor NAME_info (docs/generated-abi.md) as tlc-run reads it.
#include "ModelDescriptor.h"

#include <sstream>

using namespace tlcrun;

bool tlcrun::parseManifest(const char *text, Manifest &m, std::string &error) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "tlc-model-info 1") {
    error = "unknown descriptor version ('" + line.substr(0, 40) + "')";
    return false;
  }
  auto bad = [&](const std::string &why) {
    error = "malformed model descriptor: " + why + " in line '" + line.substr(0, 80) + "'";
    return false;
  };
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind;
    ls >> kind;
    if (kind == "name") {
      ls >> m.name;
    } else if (kind == "workspace") {
      std::string w;
      int64_t bytes;
      ls >> w;
      if (!parseDim(w, bytes))
        return bad("workspace size '" + w + "' is not a non-negative integer");
      m.workspace = bytes;
    } else if (kind == "cpu") {
      m.cpus.emplace_back();
      ls >> m.cpus.back();
    } else if (kind == "input" || kind == "output") {
      Tensor t;
      std::string dtype, dims;
      ls >> t.name >> dtype >> dims;
      if (!parseDType(dtype, t.dtype)) {
        error = "unknown dtype '" + dtype + "' in the descriptor";
        return false;
      }
      if (dims != "scalar") {
        std::stringstream ds(dims);
        std::string d;
        while (std::getline(ds, d, 'x')) {
          int64_t v;
          if (!parseDim(d, v))
            return bad("dimension '" + d + "' is not a non-negative integer");
          t.shape.push_back(v);
        }
        if (t.shape.empty())
          return bad("no shape");
      }
      int64_t numel;
      if (!checkedNumel(t.shape, kind + " '" + t.name + "'", numel, error))
        return bad(error);
      (kind == "input" ? m.inputs : m.outputs).push_back(t);
    }
  }
  return true;
}
