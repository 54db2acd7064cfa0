// oneDNN (2.x C++ API) reference timings for the benchmark harness: one primitive per case.
//
//   bench-dnnl CASE REPEATS ARGS...        prints the seconds of each timed run, one per line
//
// Before the timed runs it warms up for BENCH_WARMUP_SECONDS seconds (environment; default 0.05,
// bench.py passes its WARMUP_SECONDS), at least one run.
//
// Cases (f32, plain row-major layouts; the thread count is OMP_NUM_THREADS):
//   matmul M K N            C = A·B
//   matmul_bf16 M K N       C = A·B with A, B bf16 (converted from f32 before timing), C f32
//   linear_gelu M K N ALG   C = gelu(A·B + bias), bias and GELU as matmul post-ops
//   add N                   c = a + b (binary primitive)
//   sum N                   s = sum(x) (reduction primitive)
//   softmax R C             along the last axis
//   gelu R C ALG            eltwise GELU, ALG = tanh | erf
//   layernorm R C           along the last axis, with scale and shift
//   attention B H S D       softmax(Q K^T / sqrt(D)) V over [B*H, S, D]: a batched matmul (K
//                           read transposed through strides, the scale as an output scale),
//                           softmax along the last axis, a batched matmul with V (3 primitives)
#include <oneapi/dnnl/dnnl.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

using namespace dnnl;
using tag = memory::format_tag;
using dt = memory::data_type;

namespace {

memory makeMemory(const memory::desc &md, engine &eng, float scale) {
  memory m(md, eng);
  auto *p = static_cast<float *>(m.get_data_handle());
  size_t n = md.get_size() / sizeof(float);
  for (size_t i = 0; i < n; ++i)
    p[i] = scale * (static_cast<float>((i * 2654435761u) % 1000) / 1000.0f - 0.5f);
  return m;
}

int usage() {
  std::fprintf(stderr, "usage: bench-dnnl CASE REPEATS ARGS... (see the source)\n");
  return 2;
}

algorithm geluAlgorithm(const char *name) {
  return std::strcmp(name, "erf") == 0 ? algorithm::eltwise_gelu_erf
                                       : algorithm::eltwise_gelu_tanh;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4)
    return usage();
  std::string name = argv[1];
  int repeats = std::atoi(argv[2]);
  auto arg = [&](int i) -> memory::dim {
    if (i + 3 >= argc) {
      std::fprintf(stderr, "bench-dnnl: missing argument %d for %s\n", i, name.c_str());
      std::exit(2);
    }
    return std::atoll(argv[i + 3]);
  };
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  primitive prim;
  std::unordered_map<int, memory> args;
  // Cases of several primitives list them here, in execution order (else: prim with args).
  std::vector<std::pair<primitive, std::unordered_map<int, memory>>> steps;

  if (name == "matmul" || name == "linear_gelu") {
    memory::dim m = arg(0), k = arg(1), n = arg(2);
    memory::desc a({m, k}, dt::f32, tag::ab), b({k, n}, dt::f32, tag::ab),
        c({m, n}, dt::f32, tag::ab);
    primitive_attr attr;
    memory::desc bias;
    if (name == "linear_gelu") {
      bias = memory::desc({1, n}, dt::f32, tag::ab);
      post_ops ops;
      ops.append_eltwise(1.0f, geluAlgorithm(argc > 6 ? argv[6] : ""), 0.0f, 0.0f);
      attr.set_post_ops(ops);
    }
    matmul::primitive_desc pd(matmul::desc(a, b, bias, c), attr, eng);
    prim = matmul(pd);
    args = {{DNNL_ARG_SRC, makeMemory(a, eng, 1)},
            {DNNL_ARG_WEIGHTS, makeMemory(b, eng, 1)},
            {DNNL_ARG_DST, memory(c, eng)}};
    if (name == "linear_gelu")
      args.insert({DNNL_ARG_BIAS, makeMemory(bias, eng, 1)});
  } else if (name == "matmul_bf16") {
    memory::dim m = arg(0), k = arg(1), n = arg(2);
    memory::desc a({m, k}, dt::bf16, tag::ab), b({k, n}, dt::bf16, tag::ab),
        c({m, n}, dt::f32, tag::ab);
    matmul::primitive_desc pd;
    try {
      pd = matmul::primitive_desc(matmul::desc(a, b, c), eng);
    } catch (const dnnl::error &e) {
      // oneDNN 2.x has no bf16 matmul on CPUs without AVX-512 (e.g. Zen 3): the case does not
      // apply here (bench.py shows n/a).
      std::printf("n/a\n");
      std::fprintf(stderr, "bench-dnnl: no bf16 matmul on this CPU: %s\n", e.what());
      return 0;
    }
    prim = matmul(pd);
    auto bf16From = [&](const memory::desc &md) {
      memory f32 = makeMemory(memory::desc(md.dims(), dt::f32, tag::ab), eng, 1);
      memory low(md, eng);
      reorder(f32, low).execute(s, f32, low);
      s.wait();
      return low;
    };
    args = {{DNNL_ARG_SRC, bf16From(a)}, {DNNL_ARG_WEIGHTS, bf16From(b)},
            {DNNL_ARG_DST, memory(c, eng)}};
  } else if (name == "add") {
    memory::desc d({arg(0)}, dt::f32, tag::a);
    binary::primitive_desc pd(binary::desc(algorithm::binary_add, d, d, d), eng);
    prim = binary(pd);
    args = {{DNNL_ARG_SRC_0, makeMemory(d, eng, 1)},
            {DNNL_ARG_SRC_1, makeMemory(d, eng, 1)},
            {DNNL_ARG_DST, memory(d, eng)}};
  } else if (name == "sum") {
    memory::desc src({arg(0)}, dt::f32, tag::a), dst({1}, dt::f32, tag::a);
    reduction::primitive_desc pd(reduction::desc(algorithm::reduction_sum, src, dst, 0.f, 0.f),
                                 eng);
    prim = reduction(pd);
    args = {{DNNL_ARG_SRC, makeMemory(src, eng, 1)}, {DNNL_ARG_DST, memory(dst, eng)}};
  } else if (name == "softmax") {
    memory::desc d({arg(0), arg(1)}, dt::f32, tag::ab);
    softmax_forward::primitive_desc pd(
        softmax_forward::desc(prop_kind::forward_inference, d, 1), eng);
    prim = softmax_forward(pd);
    args = {{DNNL_ARG_SRC, makeMemory(d, eng, 4)}, {DNNL_ARG_DST, memory(d, eng)}};
  } else if (name == "gelu") {
    memory::desc d({arg(0), arg(1)}, dt::f32, tag::ab);
    eltwise_forward::primitive_desc pd(
        eltwise_forward::desc(prop_kind::forward_inference, geluAlgorithm(argc > 6 ? argv[6] : ""),
                              d, 0.f, 0.f),
        eng);
    prim = eltwise_forward(pd);
    args = {{DNNL_ARG_SRC, makeMemory(d, eng, 4)}, {DNNL_ARG_DST, memory(d, eng)}};
  } else if (name == "layernorm") {
    memory::dim r = arg(0), c = arg(1);
    memory::desc d({r, c}, dt::f32, tag::ab), p({c}, dt::f32, tag::a);
    layer_normalization_forward::primitive_desc pd(
        layer_normalization_forward::desc(prop_kind::forward_inference, d, 1e-5f,
                                          normalization_flags::use_scale |
                                              normalization_flags::use_shift),
        eng);
    prim = layer_normalization_forward(pd);
    args = {{DNNL_ARG_SRC, makeMemory(d, eng, 2)},
            {DNNL_ARG_DST, memory(d, eng)},
            {DNNL_ARG_SCALE, makeMemory(p, eng, 1)},
            {DNNL_ARG_SHIFT, makeMemory(p, eng, 1)}};
  } else if (name == "conv2d") {
    // n c h w f k stride pad; oneDNN picks its best layouts (format any), reorders untimed.
    memory::dim n = arg(0), c = arg(1), h = arg(2), w = arg(3), f = arg(4), k = arg(5),
                st = arg(6), pad = arg(7);
    memory::dim oh = (h + 2 * pad - k) / st + 1, ow = (w + 2 * pad - k) / st + 1;
    memory::desc src({n, c, h, w}, dt::f32, tag::any), wei({f, c, k, k}, dt::f32, tag::any),
        dst({n, f, oh, ow}, dt::f32, tag::any);
    convolution_forward::primitive_desc pd(
        convolution_forward::desc(prop_kind::forward_inference, algorithm::convolution_direct,
                                  src, wei, dst, {st, st}, {pad, pad}, {pad, pad}),
        eng);
    prim = convolution_forward(pd);
    args = {{DNNL_ARG_SRC, makeMemory(pd.src_desc(), eng, 1)},
            {DNNL_ARG_WEIGHTS, makeMemory(pd.weights_desc(), eng, 1)},
            {DNNL_ARG_DST, memory(pd.dst_desc(), eng)}};
  } else if (name == "attention") {
    memory::dim bh = arg(0) * arg(1), sq = arg(2), d = arg(3);
    memory::desc q({bh, sq, d}, dt::f32, tag::abc), v = q,
        kT({bh, d, sq}, dt::f32, memory::dims{sq * d, 1, d}), // K [bh, S, D] read as K^T
        scores({bh, sq, sq}, dt::f32, tag::abc), o = q;
    primitive_attr scaled;
    scaled.set_output_scales(0, {1.0f / std::sqrt(static_cast<float>(d))});
    matmul::primitive_desc qk(matmul::desc(q, kT, scores), scaled, eng);
    softmax_forward::primitive_desc sm(
        softmax_forward::desc(prop_kind::forward_inference, scores, 2), eng);
    matmul::primitive_desc pv(matmul::desc(scores, v, o), eng);
    memory mq = makeMemory(q, eng, 1), mk = makeMemory(kT, eng, 1), mv = makeMemory(v, eng, 1),
           ms(scores, eng), mo(o, eng);
    steps.push_back({matmul(qk), {{DNNL_ARG_SRC, mq}, {DNNL_ARG_WEIGHTS, mk}, {DNNL_ARG_DST, ms}}});
    steps.push_back({softmax_forward(sm), {{DNNL_ARG_SRC, ms}, {DNNL_ARG_DST, ms}}});
    steps.push_back({matmul(pv), {{DNNL_ARG_SRC, ms}, {DNNL_ARG_WEIGHTS, mv}, {DNNL_ARG_DST, mo}}});
  } else {
    return usage();
  }
  if (steps.empty())
    steps.push_back({prim, args});
  auto execute = [&] {
    for (auto &[p, a] : steps)
      p.execute(s, a);
  };

  // Warm-up (JIT, first touch, clocks and OpenMP threads up): at least one run.
  const char *warmupEnv = std::getenv("BENCH_WARMUP_SECONDS");
  double warmup = warmupEnv ? std::atof(warmupEnv) : 0.05;
  auto w0 = std::chrono::steady_clock::now();
  do {
    execute();
    s.wait();
  } while (std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() < warmup);
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    execute();
    s.wait();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%.9f\n", std::chrono::duration<double>(t1 - t0).count());
  }
  return 0;
}
