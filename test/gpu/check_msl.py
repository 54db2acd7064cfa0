"""Checks tlc's MSL against its kernel table: every kernel of the table (dump_program's
'kernel NAME args N' lines) is one `kernel void NAME(` of the MSL, there is no other, and each
buffer parameter is a kernel argument i (SPIRV-Cross keeps the SPIR-V's name NAME_arg_i) at
[[buffer(i)]], within Metal's 31 slots.
Usage: check_msl.py TABLE MSL; prints 'OK N kernels' or the problems, exiting 1."""
import re
import sys


def check(table_text, msl):
    """The problems found (none when the MSL matches the table), and the number of kernels."""
    table = {name: int(n) for name, n in re.findall(r"^kernel (\S+) args (\d+)", table_text, re.M)}
    problems = [] if table else ["empty kernel table"]
    kernels = re.findall(r"^kernel void (\w+)\((.*)\)$", msl, re.M)
    names = [name for name, _ in kernels]
    if sorted(names) != sorted(table):
        problems.append(f"table {sorted(table)} vs MSL {sorted(names)}")
    for name, params in kernels:
        slots = re.findall(r"\[\[buffer\((\d+)\)\]\]", params)
        named = re.findall(r"\b" + name + r"_arg_(\d+) \[\[buffer\((\d+)\)\]\]", params)
        if len(named) != len(slots):
            problems.append(f"{name}: a buffer parameter is not NAME_arg_i: {params}")
        for arg, slot in named:
            if arg != slot or int(slot) > 30 or int(arg) >= table.get(name, 0):
                problems.append(f"{name}: argument {arg} at buffer({slot})")
    return problems, len(table)


if __name__ == "__main__":
    problems, count = check(*(open(path).read() for path in sys.argv[1:3]))
    print("\n".join(problems) if problems else f"OK {count} kernels")
    sys.exit(1 if problems else 0)
