"""Compiles each .tl with --target=metal and checks the object's MSL against its kernel table
(check_msl.py) and that it parses as C++ against the stub <metal_stdlib>; prints 'OK NAME' or
'FAIL NAME: why' per model, then 'ALL N MODELS TRANSLATED' when every one passed."""
import argparse
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_msl import check  # noqa: E402


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{shlex.join(cmd)}: {(result.stderr or result.stdout).strip()[:2000]}")
    return result.stdout


def check_model(args, path):
    name = os.path.splitext(os.path.basename(path))[0]
    work = os.path.join(args.work, name)
    os.makedirs(work, exist_ok=True)
    obj, dump, msl = (os.path.join(work, f) for f in (name + ".o", "dump", name + ".metal"))
    run([args.tlc, path, "--target=metal", "-o", obj])
    run(shlex.split(args.cc) + [f"-DPROGRAM={name}_program", args.dumper, obj, args.runtime_lib,
                                "-o", dump, "-ldl", "-lm", "-lpthread"])
    table = run([dump, msl])
    if 'backend 3 target "msl 2.3"' not in table or "code_size matches strlen" not in table:
        raise RuntimeError("program header: " + table.splitlines()[0])
    problems, _ = check(table, open(msl).read())
    if problems:
        raise RuntimeError("; ".join(problems))
    run([args.clangxx, "-x", "c++", "-std=c++17", "-fsyntax-only", "-nostdinc", "-nostdinc++",
         "-I", args.stub, "-Wno-unknown-attributes", msl])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    for flag in ("--tlc", "--cc", "--runtime-lib", "--dumper", "--clangxx", "--stub", "--work"):
        parser.add_argument(flag, required=True)
    parser.add_argument("models", nargs="+")
    args = parser.parse_args()
    failed = 0
    for path in args.models:
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            check_model(args, path)
            print(f"OK {name}")
        except RuntimeError as error:
            failed += 1
            print(f"FAIL {name}: {error}")
    if failed:
        print(f"{failed} of {len(args.models)} models FAILED")
        return 1
    print(f"ALL {len(args.models)} MODELS TRANSLATED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
