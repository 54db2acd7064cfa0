#!/usr/bin/python3
"""Writes a .tl perceptron of N layers (to stdout): enough kernels, parallel loops and weights
that LLVM optimizes its module in partitions (targets/cpu/LLVMPartitions.cpp). Every layer has
its own width, so no two layers' kernels are the same function (tlc-merge-parallel-bodies would
compile those once, and the module would be too small to partition).

  make_deep_mlp.py N
"""
import sys


def main():
    n = int(sys.argv[1])
    print(f"# A {n}-layer perceptron (test/tlc/Inputs/make_deep_mlp.py).")
    print("input x : f32[64, 96]")
    d = 96
    for i in range(n):
        e = 96 + 8 * (i + 1)
        print(f"param w{i} : f32[{d}, {e}] = randn(seed={i + 1}, std={d ** -0.5:.4f})")
        print(f"param b{i} : f32[{e}] = uniform(seed={100 + i}, low=-0.1, high=0.1)")
        prev = "x" if i == 0 else f"h{i - 1}"
        act = "tanh" if i % 2 else "relu"
        print(f'h{i} = {act}(einsum("bi,ij->bj", {prev}, w{i}) + b{i})')
        d = e
    print(f"output y = softmax(h{n - 1}, axis=-1)")


if __name__ == "__main__":
    main()
