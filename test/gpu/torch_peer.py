#!/usr/bin/env python3
"""The GPU check's peer timings: torch.matmul (TF32 off) and scaled_dot_product_attention in f32
on the first CUDA device, the same shapes as test/gpu/Inputs/*.tl; median of CUDA-event times.
Prints `peer NAME device_ms_median=...` lines, or says why it cannot."""
import os
import sys

try:
    import torch
except ImportError:
    print("peer: no torch on this machine")
    sys.exit(0)


def time_ms(fn, runs=50):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(5):
        fn()
    times = []
    for _ in range(runs):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    if not torch.cuda.is_available():
        print("peer: torch sees no CUDA device")
        return 0
    # `torch_peer.py MODEL...`: only those models of export_models.py, eager.
    only_models = sys.argv[1:]
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    if only_models:
        return time_models(only_models, dev)
    a = torch.randn(1024, 1024, device=dev)
    b = torch.randn(1024, 1024, device=dev)
    print("peer matmul1024 device_ms_median=%.4f (%s, torch %s)" %
          (time_ms(lambda: torch.matmul(a, b)), torch.cuda.get_device_name(), torch.__version__))
    for n in (2048, 4096):
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        ms = time_ms(lambda: torch.matmul(a, b), runs=20)
        print("peer matmul%d device_ms_median=%.4f tflops=%.2f" % (n, ms, 2.0 * n ** 3 / ms / 1e9))
    q, k, v = (torch.randn(1, 8, 512, 64, device=dev) for _ in range(3))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    print("peer attention512 device_ms_median=%.4f" %
          time_ms(lambda: sdpa(q, k, v, is_causal=True)))
    for seq in (1024, 4096):
        q, k, v = (torch.randn(4, 8, seq, 64, device=dev) for _ in range(3))
        ms = time_ms(lambda: sdpa(q, k, v), runs=20)
        print("peer attention%d device_ms_median=%.4f tflops=%.2f" %
              (seq, ms, 4.0 * 4 * 8 * seq * seq * 64 / ms / 1e9))
    return time_models(("transformer", "transformer_b32", "gpt2_block", "mobilenet_v2"), dev)


def time_models(names, dev):
    """The ONNX models of cuda-check.sh, eager in f32 (their shapes; the weights do not matter);
    those named in TLC_PEER_COMPILE (space-separated) also torch.compile'd (default mode)."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "onnx", "models"))
    import export_models
    for name in names:
        try:
            model, x = export_models.build(name, 224)
        except Exception as e:  # torchvision missing, an API change: say so, go on
            print("peer %s: cannot build (%s)" % (name, e))
            continue
        model, x = model.to(dev).eval(), x.to(dev)
        with torch.no_grad():
            print("peer %s device_ms_median=%.4f (eager)" % (name, time_ms(lambda: model(x))),
                  flush=True)
            if name in os.environ.get("TLC_PEER_COMPILE", "").split():
                try:
                    compiled = torch.compile(model)
                    print("peer %s device_ms_median=%.4f (torch.compile)" %
                          (name, time_ms(lambda: compiled(x))), flush=True)
                except Exception as e:  # no Triton, a compile error: say so, go on
                    print("peer %s: torch.compile failed (%s)" % (name, str(e).splitlines()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
