#!/usr/bin/env python3
"""Exports the real models tlc is checked against, with random weights and fixed seeds.

For each model writes NAME.onnx, NAME.input.npy and NAME.expected.npy (PyTorch's output) into
--out. Models: resnet18 and mobilenet_v2 (torchvision 0.14), an nn.TransformerEncoder (fast
path off: batch_first=False), a GPT-2-style decoder block written in plain PyTorch
(embeddings, causal mask, LayerNorm, tanh-GELU) and a small LR-ASPP segmentation head
(batch 2; on request: `lraspp`). Recurrent models, on request: `lstm_classifier` (embedding,
2-layer LSTM, last hidden state -> linear), `gru_tagger` (embedding, bidirectional GRU,
per-step outputs -> linear) and `rnn_packed` (a tanh RNN over a packed batch: its lengths
become the ONNX RNN's sequence_lens). A video model, on request: `r3d` (a small 3-D ResNet:
Conv3d stem, two r3d-style basic blocks, one strided with a 1x1x1 projection, a max pool,
AdaptiveAvgPool3d and a linear classifier, on a 1x3x4x32x32 clip). A DenseNet block, on
request: `densenet_block` (torchvision's _DenseBlock, 5 layers, each reading the concat of
all earlier outputs, then a _Transition). A model with several inputs or outputs also writes
NAME.input1.npy, ... and NAME.expected1.npy, ...
"""
import argparse
import math
import os

import numpy as np
import torch
import torch.nn as nn


class NewGELU(nn.Module):
    """GPT-2's tanh GELU, written out (the exporter emits the formula, tlc lifts it)."""

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class CausalSelfAttention(nn.Module):
    def __init__(self, d, heads, ctx):
        super().__init__()
        self.c_attn = nn.Linear(d, 3 * d)
        self.c_proj = nn.Linear(d, d)
        self.heads = heads
        self.register_buffer("bias", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        h = self.heads
        k = k.view(B, T, h, C // h).transpose(1, 2)
        q = q.view(B, T, h, C // h).transpose(1, 2)
        v = v.view(B, T, h, C // h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, d, heads, ctx):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, ctx)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), NewGELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2Block(nn.Module):
    def __init__(self, vocab=512, d=128, heads=4, ctx=64):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.block = Block(d, heads, ctx)
        self.ln_f = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        T = idx.size(1)
        pos = torch.arange(0, T, dtype=torch.long, device=idx.device).unsqueeze(0)
        x = self.wte(idx) + self.wpe(pos)
        return self.lm_head(self.ln_f(self.block(x)))


class LRASPPNet(nn.Module):
    """A small backbone and torchvision's LR-ASPP head: a 1xCx1x1 sigmoid gate (global pool,
    1x1 conv) multiplied onto a 1x1 convolution's output, upsampled, plus a low-level branch."""

    def __init__(self, classes=5, inter=128):
        super().__init__()
        self.low = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
        self.high = nn.Sequential(nn.Conv2d(16, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.Hardswish())
        self.cbr = nn.Sequential(nn.Conv2d(64, inter, 1, bias=False), nn.BatchNorm2d(inter),
                                 nn.ReLU())
        self.scale = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(64, inter, 1, bias=False),
                                   nn.Sigmoid())
        self.low_classifier = nn.Conv2d(16, classes, 1)
        self.high_classifier = nn.Conv2d(inter, classes, 1)

    def forward(self, x):
        low = self.low(x)
        high = self.high(low)
        y = self.cbr(high) * self.scale(high)
        y = nn.functional.interpolate(y, size=low.shape[-2:], mode="bilinear", align_corners=False)
        return self.low_classifier(low) + self.high_classifier(y)


class BasicBlock3d(nn.Module):
    """torchvision r3d_18's basic block: two 3x3x3 Conv3d+BatchNorm3d, ReLU, a residual (a
    strided 1x1x1 projection when the shape changes)."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv3d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm3d(cout)
        self.conv2 = nn.Conv3d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm3d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv3d(cin, cout, 1, stride, bias=False),
                                      nn.BatchNorm3d(cout))

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + (x if self.down is None else self.down(x)))


class R3D(nn.Module):
    """A small r3d-style video classifier: a (3, 7, 7) stem strided in space only (as r3d_18's),
    a 3-D max pool, a basic block, a strided basic block, global average pooling, linear."""

    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv3d(3, 16, (3, 7, 7), (1, 2, 2), (1, 3, 3), bias=False),
                                  nn.BatchNorm3d(16), nn.ReLU())
        self.pool = nn.MaxPool3d((1, 3, 3), (1, 2, 2), (0, 1, 1))
        self.layer1 = BasicBlock3d(16, 16, 1)
        self.layer2 = BasicBlock3d(16, 32, 2)
        self.avg = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(32, classes)

    def forward(self, x):
        y = self.layer2(self.layer1(self.pool(self.stem(x))))
        return self.fc(torch.flatten(self.avg(y), 1))


class TimeResBlock(nn.Module):
    """A diffusion UNet's residual block: GroupNorm, SiLU, 3x3 conv, plus the projected time
    embedding broadcast over the image, twice; a 1x1 skip projection when channels change."""

    def __init__(self, cin, cout, tdim):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(8, cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.time = nn.Linear(tdim, cout)
        self.norm2, self.conv2 = nn.GroupNorm(8, cout), nn.Conv2d(cout, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else nn.Identity()

    def forward(self, x, temb):
        h = self.conv1(nn.functional.silu(self.norm1(x)))
        h = h + self.time(nn.functional.silu(temb))[:, :, None, None]
        h = self.conv2(nn.functional.silu(self.norm2(h)))
        return h + self.skip(x)


class TinyUNet(nn.Module):
    """A small diffusion UNet: a sinusoidal embedding of the timestep (sin and cos of t times
    geometric frequencies, concatenated) through an MLP, two resolutions of TimeResBlocks with
    a strided-conv downsample, a nearest-upsample and conv, and a skip concatenation."""

    def __init__(self, ch=16, tdim=32):
        super().__init__()
        self.tdim = tdim
        self.temb = nn.Sequential(nn.Linear(tdim, tdim * 2), nn.SiLU(), nn.Linear(tdim * 2, tdim))
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.down1 = TimeResBlock(ch, ch, tdim)
        self.downsample = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.mid = TimeResBlock(ch, 2 * ch, tdim)
        self.upsample = nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"),
                                      nn.Conv2d(2 * ch, ch, 3, padding=1))
        self.up1 = TimeResBlock(2 * ch, ch, tdim)
        self.out = nn.Sequential(nn.GroupNorm(8, ch), nn.SiLU(), nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, x, t):
        half = self.tdim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
        angles = t[:, None] * freqs[None, :]
        temb = self.temb(torch.cat([torch.sin(angles), torch.cos(angles)], dim=1))
        h0 = self.down1(self.inp(x), temb)
        h1 = self.mid(self.downsample(h0), temb)
        h = self.up1(torch.cat([self.upsample(h1), h0], dim=1), temb)
        return self.out(h)


class ConvBlock(nn.Module):
    """One of resnet18's convolutions with its BatchNorm and ReLU (the GPU benchmark's
    per-layer rows)."""

    def __init__(self, cin, cout, kernel, stride):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False)
        self.bn = nn.BatchNorm2d(cout)

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


# resnet18's convolution shapes: (input channels, output channels, kernel, stride, image).
RESNET_CONVS = {
    "conv1": (3, 64, 7, 2, 224),
    "layer1": (64, 64, 3, 1, 56),
    "layer2": (128, 128, 3, 1, 28),
    "layer3": (256, 256, 3, 1, 14),
    "layer4": (512, 512, 3, 1, 7),
}


class LSTMClassifier(nn.Module):
    def __init__(self, vocab=100, d=32, hidden=48, classes=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.lstm = nn.LSTM(d, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, tokens):
        _, (h, _) = self.lstm(self.embed(tokens))
        return self.fc(h[-1])


class GRUTagger(nn.Module):
    def __init__(self, vocab=100, d=32, hidden=40, tags=9):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.gru = nn.GRU(d, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, tags)

    def forward(self, tokens):
        y, _ = self.gru(self.embed(tokens))
        return self.fc(y)


class PackedRNN(nn.Module):
    """A tanh RNN over padded sequences of the given (descending) lengths."""

    def __init__(self, features=6, hidden=8, classes=3):
        super().__init__()
        self.rnn = nn.RNN(features, hidden, nonlinearity="tanh")
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x, lengths):
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, enforce_sorted=True)
        out, h = self.rnn(packed)
        y, _ = nn.utils.rnn.pad_packed_sequence(out, total_length=x.shape[0])
        return self.fc(y), h


def build(name, size):
    # resnet_LAYER_bBATCH: one convolution of resnet18 (RESNET_CONVS) with BatchNorm and ReLU.
    if name.startswith("resnet_") and "_b" in name:
        layer, batch = name[len("resnet_"):].rsplit("_b", 1)
        if layer in RESNET_CONVS:
            cin, cout, kernel, stride, image = RESNET_CONVS[layer]
            return ConvBlock(cin, cout, kernel, stride), torch.randn(int(batch), cin, image, image)
    # resnet_block_bBATCH: one of resnet18's layer2 basic blocks (two 3x3 convolutions of 128
    # channels with BatchNorm, ReLU and the residual add) on 16x16 inputs.
    if name.startswith("resnet_block_b"):
        from torchvision.models.resnet import BasicBlock
        batch = int(name[len("resnet_block_b"):])
        return BasicBlock(128, 128), torch.randn(batch, 128, 16, 16)
    if name in ("resnet18", "resnet18_b32"):
        import torchvision
        batch = 32 if name == "resnet18_b32" else 1
        return torchvision.models.resnet18(weights=None), torch.randn(batch, 3, size, size)
    if name == "mobilenet_v2":
        import torchvision
        return torchvision.models.mobilenet_v2(weights=None), torch.randn(1, 3, size, size)
    if name in ("transformer", "transformer_b32"):
        layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256,
                                           dropout=0.1, batch_first=False)
        enc = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        batch = 32 if name == "transformer_b32" else 2
        return enc, torch.randn(32, batch, 128)  # (sequence, batch, features)
    if name == "lraspp":
        return LRASPPNet(), torch.randn(2, 3, size, size)
    if name == "r3d":
        return R3D(), torch.randn(1, 3, 4, 32, 32)
    if name == "unet":
        return TinyUNet(), (torch.randn(2, 3, 32, 32), torch.tensor([10.0, 500.0]))
    if name == "densenet_block":
        from torchvision.models.densenet import _DenseBlock, _Transition
        block = _DenseBlock(num_layers=5, num_input_features=24, bn_size=2, growth_rate=12,
                            drop_rate=0)
        return nn.Sequential(block, _Transition(24 + 5 * 12, 32)), torch.randn(2, 24, 16, 16)
    if name == "gpt2_block":
        return GPT2Block(), torch.randint(0, 512, (1, 32), dtype=torch.long)
    if name == "lstm_classifier":
        return LSTMClassifier(), torch.randint(0, 100, (4, 20), dtype=torch.long)
    if name == "gru_tagger":
        return GRUTagger(), torch.randint(0, 100, (4, 16), dtype=torch.long)
    if name == "rnn_packed":
        return PackedRNN(), (torch.randn(7, 4, 6), torch.tensor([7, 5, 5, 2]))
    raise SystemExit(f"unknown model {name}")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, default=224, help="image size for the CNNs")
    ap.add_argument("--opset", type=int, default=13)
    ap.add_argument("--compressible", action="store_true",
                    help="round every parameter to a multiple of 1/64 (timing-only objects "
                         "that must travel compressed: their constants then have few values)")
    ap.add_argument("models", nargs="*",
                    default=["resnet18", "mobilenet_v2", "transformer", "gpt2_block"])
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name in args.models:
        torch.manual_seed(0)
        model, x = build(name, args.size)
        model.eval()
        with torch.no_grad():
            # Random BatchNorm statistics, so the folded scale/shift are exercised.
            for m in model.modules():
                if isinstance(m, (nn.BatchNorm2d, nn.BatchNorm3d)):
                    m.running_mean.uniform_(-0.1, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
            if args.compressible:
                for t in list(model.parameters()) + list(model.buffers()):
                    if t.is_floating_point():
                        t.copy_(torch.round(t * 64) / 64)
            xs = x if isinstance(x, tuple) else (x,)
            y = model(*xs)
            ys = y if isinstance(y, tuple) else (y,)
        path = os.path.join(args.out, name)
        suffix = lambda i: "" if i == 0 else str(i)
        torch.onnx.export(model, xs, path + ".onnx", opset_version=args.opset,
                          input_names=["input" + suffix(i) for i in range(len(xs))],
                          output_names=["output" + suffix(i) for i in range(len(ys))],
                          do_constant_folding=True)
        for i, v in enumerate(xs):
            np.save(path + ".input" + suffix(i) + ".npy", v.numpy())
        for i, v in enumerate(ys):
            np.save(path + ".expected" + suffix(i) + ".npy", v.numpy())
        print(f"{name}: input {tuple(xs[0].shape)} -> output {tuple(ys[0].shape)}")


if __name__ == "__main__":
    main()
