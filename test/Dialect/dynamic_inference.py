"""Result-type inference with dynamic sizes, on every tad op instance the lit
tests contain.

Each op (in generic form, from `tad-opt --mlir-print-op-generic` of every
test/**/*.mlir) is re-typed with one operand dimension at a time made `?`,
then with every dimension `?` (and a size-list attribute of the input's
sizes, `input_sizes`, with one entry dynamic), and given results of all-`?` types; tad-opt
then reports the types it infers. The original instance is one value of
those dynamic sizes, so each inferred static size must be the original's;
and no diagnostic may show a number made of the dynamic marker (a size
computed from ShapedType::kDynamic). Rejecting the dynamic form with a
clear error is fine. Prints the offenders and `N variants, M bad`."""
import argparse
import glob
import os
import re
import subprocess
import sys

OP = re.compile(r'^\s*(?:%[\w:#]+ = )?("tad\.[\w.]+")\((.*?)\)(.*?) : \((.*?)\) -> (.*)$')
TENSOR = re.compile(r'tensor<([^<>]*)>')
SIZE_ATTR = re.compile(r'\b(input_sizes|self_sizes) = array<i64: ([-\d, ]+)>')
DYNAMIC = -9223372036854775808  # ShapedType::kDynamic


def split_types(text):
    out, depth, cur = [], 0, ''
    for ch in text:
        depth += (ch == '<') - (ch == '>')
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return out + ([cur.strip()] if cur.strip() else [])


def shape_of(tensor):
    return TENSOR.match(tensor).group(1).split('x')


def retyped(tensor, dims=None):
    """`tensor` with the sizes at `dims` (all when None) dynamic."""
    *shape, element = shape_of(tensor)
    shape = ['?' if dims is None or i in dims else s for i, s in enumerate(shape)]
    return 'tensor<' + 'x'.join(shape + [element]) + '>'


def collect(tad_opt, root):
    """{(op, attrs, operand types): result types} of the tests' tad ops."""
    found = {}
    for path in sorted(glob.glob(os.path.join(root, '**', '*.mlir'), recursive=True)):
        run = subprocess.run([tad_opt, path, '--mlir-print-op-generic'],
                             capture_output=True, text=True)
        for line in run.stdout.splitlines():
            match = OP.match(line)
            if not match or '({' in line:
                continue
            name, _, attrs, inputs, outputs = match.groups()
            inputs = split_types(inputs)
            outputs = outputs.strip()
            outputs = split_types(outputs[1:-1] if outputs.startswith('(') else outputs)
            if all(t.startswith('tensor<') for t in inputs + outputs):
                found.setdefault((name, attrs.strip(), tuple(inputs)), outputs)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--tad-opt', required=True)
    parser.add_argument('--tests', required=True, help='the test/ directory')
    parser.add_argument('--per-op', type=int, default=4,
                        help='instances tried per op')
    args = parser.parse_args()
    per_op = {}
    for key, outputs in collect(args.tad_opt, args.tests).items():
        per_op.setdefault(key[0], []).append((key, outputs))
    total = bad = 0
    for name in sorted(per_op):
        for (_, key_attrs, inputs), outputs in per_op[name][:args.per_op]:
            attrs = key_attrs
            rank = max([len(shape_of(t)) - 1 for t in inputs] + [0])
            variants = [([retyped(t, {d}) for t in inputs], attrs)
                        for d in range(rank)]
            variants.append(([retyped(t) for t in inputs], attrs))
            # A size list attribute of the input's sizes (input_sizes of
            # the backward ops) with one size dynamic, as a rule writes it.
            for match in SIZE_ATTR.finditer(attrs):
                sizes = match.group(2).split(', ')
                for i in range(len(sizes)):
                    marked = sizes[:i] + [str(DYNAMIC)] + sizes[i + 1:]
                    variants.append((list(inputs), attrs[:match.start(2)] +
                                     ', '.join(marked) + attrs[match.end(2):]))
            for variant, attrs in variants:
                if variant == list(inputs) and attrs == key_attrs:
                    continue
                total += 1
                results = ', '.join(retyped(t) for t in outputs)
                arguments = ', '.join(f'%a{i}: {t}' for i, t in enumerate(variant))
                operands = ', '.join(f'%a{i}' for i in range(len(variant)))
                bind = '%r' if len(outputs) == 1 else f'%r:{len(outputs)}'
                source = (f'func.func @f({arguments}) {{\n'
                          f'  {bind} = {name}({operands}){attrs} : '
                          f'({", ".join(variant)}) -> ({results})\n'
                          f'  return\n}}\n')
                run = subprocess.run([args.tad_opt, '-'], input=source,
                                     capture_output=True, text=True)
                problems = []
                if run.returncode not in (0, 1) or 'Stack dump' in run.stderr:
                    problems.append('crash')
                messages = '\n'.join(line.split('error:', 1)[1] for line in
                                      run.stderr.splitlines() if 'error:' in line)
                problems += [f'size {n} from the dynamic marker' for n in
                             re.findall(r'-?\d{12,}', messages)
                             if n not in source or n == str(DYNAMIC)]
                inferred = re.search(r"inferred type\(s\) (.*?) are incompatible", run.stderr)
                for got, original in zip(re.findall(r"'(tensor<[^']*>)'",
                                                    inferred.group(1)) if inferred else [],
                                         outputs):
                    a, b = shape_of(got)[:-1], shape_of(original)[:-1]
                    if len(a) != len(b) or any(x not in ('?', y) for x, y in zip(a, b)):
                        problems.append(f'inferred {got}, but the instance has {original}')
                if problems:
                    bad += 1
                    print(f'BAD {name}: {"; ".join(problems)}\n{source}{run.stderr[:600]}')
    print(f'{total} variants, {bad} bad')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
