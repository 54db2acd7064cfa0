// Structure-aware mutation of ONNX models for the fuzz-onnx harness.
#include "OnnxMutator.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace tlcfuzz;

namespace {

/// Values that have broken shape and size arithmetic before: zero, signs, wrap-around limits.
int64_t interestingInt(std::mt19937_64 &rng) {
  static const int64_t values[] = {0,  1,  -1, 2,  3,  -2, 4,          7,          16,
                                   64, 255, 256, 1 << 20, int64_t(1) << 31, int64_t(1) << 40,
                                   int64_t(1) << 62, std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int32_t>::min(), -1000};
  if (rng() % 4 == 0)
    return int64_t(rng() % 33) - 16;
  return values[rng() % (sizeof(values) / sizeof(values[0]))];
}

float interestingFloat(std::mt19937_64 &rng) {
  static const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-30f, 1e30f,
                                 std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN(), 3.0f};
  return values[rng() % (sizeof(values) / sizeof(values[0]))];
}

const char *const kOpTypes[] = {
    "Add", "Sub", "Mul", "Div", "MatMul", "Gemm", "Conv", "ConvTranspose", "Relu", "Sigmoid",
    "Softmax", "LogSoftmax", "Reshape", "Transpose", "Concat", "Split", "Slice", "Gather",
    "Squeeze", "Unsqueeze", "Flatten", "Expand", "Pad", "Resize", "MaxPool", "AveragePool",
    "GlobalAveragePool", "BatchNormalization", "LayerNormalization", "ReduceMean", "ReduceSum",
    "ReduceMax", "Cast", "Where", "Equal", "Less", "Pow", "Sqrt", "Erf", "Tanh", "Einsum",
    "Shape", "ConstantOfShape", "Range", "Tile", "DepthToSpace", "SpaceToDepth", "Trilu",
    "Clip", "Identity", "Constant", "TopK", "ArgMax", "Mod", "Neg", "Not", "Max", "Min"};

const char *const kAttrNames[] = {
    "axis", "axes", "perm", "strides", "pads", "kernel_shape", "dilations", "group", "to",
    "keepdims", "mode", "blocksize", "alpha", "beta", "epsilon", "transA", "transB",
    "auto_pad", "split", "equation", "value", "upper", "ceil_mode", "output_padding",
    "coordinate_transformation_mode", "fmod", "starts", "ends", "allowzero", "k"};

const int kDataTypes[] = {onnx::TensorProto::FLOAT,   onnx::TensorProto::INT64,
                          onnx::TensorProto::INT32,   onnx::TensorProto::BOOL,
                          onnx::TensorProto::FLOAT16, onnx::TensorProto::DOUBLE,
                          onnx::TensorProto::BFLOAT16, onnx::TensorProto::UINT8,
                          onnx::TensorProto::STRING,  0};

template <typename T> size_t pick(const T &container, std::mt19937_64 &rng) {
  return rng() % container.size();
}

/// Every tensor name the graph mentions, to rewire edges with.
std::vector<std::string> tensorNames(const onnx::GraphProto &g) {
  std::vector<std::string> names;
  for (const auto &i : g.input())
    names.push_back(i.name());
  for (const auto &t : g.initializer())
    names.push_back(t.name());
  for (const auto &n : g.node())
    for (const auto &o : n.output())
      names.push_back(o);
  names.push_back("");
  return names;
}

void mutateInts(google::protobuf::RepeatedField<int64_t> &ints, std::mt19937_64 &rng) {
  switch (rng() % 4) {
  case 0:
    if (!ints.empty()) {
      ints.Set(pick(ints, rng), interestingInt(rng));
      return;
    }
    [[fallthrough]];
  case 1:
    ints.Add(interestingInt(rng));
    return;
  case 2:
    if (!ints.empty())
      ints.RemoveLast();
    return;
  default:
    ints.Clear();
  }
}

void mutateAttribute(onnx::AttributeProto &a, std::mt19937_64 &rng) {
  switch (rng() % 7) {
  case 0:
    a.set_i(interestingInt(rng));
    a.set_type(onnx::AttributeProto::INT);
    return;
  case 1:
    mutateInts(*a.mutable_ints(), rng);
    a.set_type(onnx::AttributeProto::INTS);
    return;
  case 2:
    a.set_f(interestingFloat(rng));
    a.set_type(onnx::AttributeProto::FLOAT);
    return;
  case 3: {
    static const char *const strings[] = {"", "NOTSET", "SAME_UPPER", "VALID", "nearest",
                                          "linear", "DCR", "CRD", "ij,jk->ik", "...,i->",
                                          "constant", "reflect", "edge", "x"};
    a.set_s(strings[rng() % (sizeof(strings) / sizeof(strings[0]))]);
    a.set_type(onnx::AttributeProto::STRING);
    return;
  }
  case 4: // the declared type and the payload disagree
    a.set_type(static_cast<onnx::AttributeProto::AttributeType>(rng() % 15));
    return;
  case 5: {
    onnx::TensorProto *t = a.mutable_t();
    t->set_data_type(kDataTypes[rng() % (sizeof(kDataTypes) / sizeof(kDataTypes[0]))]);
    mutateInts(*t->mutable_dims(), rng);
    if (rng() % 2)
      t->add_int64_data(interestingInt(rng));
    else
      t->add_float_data(interestingFloat(rng));
    a.set_type(onnx::AttributeProto::TENSOR);
    return;
  }
  default:
    a.set_name(kAttrNames[rng() % (sizeof(kAttrNames) / sizeof(kAttrNames[0]))]);
  }
}

void mutateNode(onnx::GraphProto &g, onnx::NodeProto &n, std::mt19937_64 &rng) {
  std::vector<std::string> names = tensorNames(g);
  switch (rng() % 9) {
  case 0:
    n.set_op_type(kOpTypes[rng() % (sizeof(kOpTypes) / sizeof(kOpTypes[0]))]);
    return;
  case 1:
    if (n.attribute_size()) {
      mutateAttribute(*n.mutable_attribute(pick(n.attribute(), rng)), rng);
      return;
    }
    [[fallthrough]];
  case 2: {
    onnx::AttributeProto *a = n.add_attribute();
    a->set_name(kAttrNames[rng() % (sizeof(kAttrNames) / sizeof(kAttrNames[0]))]);
    mutateAttribute(*a, rng);
    return;
  }
  case 3:
    if (n.attribute_size()) {
      n.mutable_attribute()->DeleteSubrange(pick(n.attribute(), rng), 1);
      return;
    }
    [[fallthrough]];
  case 4: // rewire an input (possibly to a later node's output: a cycle, or to "")
    if (n.input_size()) {
      n.set_input(pick(n.input(), rng), names[rng() % names.size()]);
      return;
    }
    [[fallthrough]];
  case 5:
    n.add_input(names[rng() % names.size()]);
    return;
  case 6:
    if (n.input_size()) {
      n.mutable_input()->DeleteSubrange(pick(n.input(), rng), 1);
      return;
    }
    return;
  case 7: // a second writer, an empty output, or an extra output
    if (n.output_size() && rng() % 2) {
      n.set_output(pick(n.output(), rng), names[rng() % names.size()]);
      return;
    }
    n.add_output("extra" + std::to_string(rng() % 4));
    return;
  default:
    n.set_domain(rng() % 2 ? "" : "com.microsoft");
  }
}

void mutateValueInfo(onnx::ValueInfoProto &v, std::mt19937_64 &rng) {
  onnx::TypeProto::Tensor *t = v.mutable_type()->mutable_tensor_type();
  switch (rng() % 5) {
  case 0:
    t->set_elem_type(kDataTypes[rng() % (sizeof(kDataTypes) / sizeof(kDataTypes[0]))]);
    return;
  case 1:
    if (t->shape().dim_size()) {
      auto *d = t->mutable_shape()->mutable_dim(pick(t->shape().dim(), rng));
      if (rng() % 4 == 0)
        d->set_dim_param("N");
      else
        d->set_dim_value(interestingInt(rng));
      return;
    }
    [[fallthrough]];
  case 2:
    t->mutable_shape()->add_dim()->set_dim_value(interestingInt(rng));
    return;
  case 3:
    if (t->shape().dim_size()) {
      t->mutable_shape()->mutable_dim()->RemoveLast();
      return;
    }
    t->clear_shape();
    return;
  default:
    v.clear_type();
  }
}

void mutateInitializer(onnx::TensorProto &t, std::mt19937_64 &rng) {
  switch (rng() % 5) {
  case 0:
    mutateInts(*t.mutable_dims(), rng);
    return;
  case 1:
    t.set_data_type(kDataTypes[rng() % (sizeof(kDataTypes) / sizeof(kDataTypes[0]))]);
    return;
  case 2:
    if (t.has_raw_data() && !t.raw_data().empty()) {
      t.mutable_raw_data()->resize(rng() % t.raw_data().size());
      return;
    }
    [[fallthrough]];
  case 3: // replace the values by a few interesting ones, as int64 data
    t.clear_raw_data();
    t.clear_float_data();
    t.clear_int32_data();
    t.clear_int64_data();
    for (int i = 0, n = 1 + rng() % 4; i < n; ++i)
      t.add_int64_data(interestingInt(rng));
    return;
  default:
    t.set_data_location(rng() % 2 ? onnx::TensorProto::EXTERNAL : onnx::TensorProto::DEFAULT);
  }
}

void mutateOnce(onnx::ModelProto &model, std::mt19937_64 &rng) {
  onnx::GraphProto &g = *model.mutable_graph();
  switch (rng() % 12) {
  case 0:
  case 1:
  case 2:
  case 3:
    if (g.node_size()) {
      mutateNode(g, *g.mutable_node(pick(g.node(), rng)), rng);
      return;
    }
    [[fallthrough]];
  case 4: // a copy of a node, elsewhere (two writers, or a use before its definition)
    if (g.node_size()) {
      onnx::NodeProto copy = g.node(pick(g.node(), rng));
      *g.add_node() = copy;
      if (rng() % 2)
        g.mutable_node()->SwapElements(0, g.node_size() - 1);
      return;
    }
    return;
  case 5:
    if (g.node_size()) {
      g.mutable_node()->DeleteSubrange(pick(g.node(), rng), 1);
      return;
    }
    return;
  case 6:
    if (g.input_size()) {
      mutateValueInfo(*g.mutable_input(pick(g.input(), rng)), rng);
      return;
    }
    [[fallthrough]];
  case 7:
    if (g.output_size()) {
      mutateValueInfo(*g.mutable_output(pick(g.output(), rng)), rng);
      return;
    }
    return;
  case 8:
    if (g.initializer_size()) {
      mutateInitializer(*g.mutable_initializer(pick(g.initializer(), rng)), rng);
      return;
    }
    return;
  case 9: { // an output or input listed twice, or one removed
    if (g.output_size() && rng() % 2) {
      *g.add_output() = g.output(pick(g.output(), rng));
      return;
    }
    if (g.input_size())
      g.mutable_input()->DeleteSubrange(pick(g.input(), rng), 1);
    return;
  }
  case 10: // an output naming another tensor
    if (g.output_size()) {
      std::vector<std::string> names = tensorNames(g);
      g.mutable_output(pick(g.output(), rng))->set_name(names[rng() % names.size()]);
    }
    return;
  default:
    if (model.opset_import_size())
      model.mutable_opset_import(0)->set_version(rng() % 2 ? interestingInt(rng)
                                                           : 1 + int64_t(rng() % 20));
  }
}

} // namespace

void tlcfuzz::mutateModel(onnx::ModelProto &model, std::mt19937_64 &rng) {
  for (int i = 0, n = 1 + rng() % 3; i < n; ++i)
    mutateOnce(model, rng);
}
