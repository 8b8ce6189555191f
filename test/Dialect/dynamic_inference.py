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
clear error is fine. Then each instance with a dynamic dimension 0 goes
through differentiation and lowering (PIPELINE): tad may refuse it with a
diagnostic, but must not crash, build an invalid upstream op, or print a
size made of the marker. Prints the offenders, `N variants, M bad` and
`pipeline: N through, M bad`."""
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
    through, failed = pipeline(args.tad_opt, per_op, args.per_op)
    print(f'pipeline: {through} through, {len(failed)} bad')
    for line in failed:
        print(line)
    return 1 if bad or failed else 0


# What differentiation and lowering run on a program (tadc's order).
PIPELINE = ['--tad-decompose', '--tad-vjp=functions=f', '--tad-jvp=functions=f',
            '--tad-decompose', '--tad-split-dynamic-batch', '--tad-check-shapes',
            '--tad-to-linalg']


def pipeline(tad_opt, per_op, limit):
    """Each instance with dimension 0 of its operands dynamic, returned from
    a function, through PIPELINE: a refusal must be a diagnostic of tad
    (not a crash, not an invalid upstream op that tad built, not a number
    made of the dynamic marker). Returns how many went through and the
    offenders."""
    through, failed = 0, []
    for name in sorted(per_op):
        for (_, attrs, inputs), outputs in per_op[name][:limit]:
            if not any(len(shape_of(t)) > 1 for t in inputs):
                continue
            variant = [retyped(t, {0}) for t in inputs]
            arguments = ', '.join(f'%a{i}: {t}' for i, t in enumerate(variant))
            operands = ', '.join(f'%a{i}' for i in range(len(variant)))

            def source(results):
                names = ['%r'] if len(results) == 1 else [f'%r#{i}' for i in range(len(results))]
                bind = '%r' if len(results) == 1 else f'%r:{len(results)}'
                return (f'func.func @f({arguments}) -> ({", ".join(results)}) {{\n'
                        f'  {bind} = {name}({operands}){attrs} : ({", ".join(variant)}) '
                        f'-> ({", ".join(results)})\n'
                        f'  return {", ".join(names)} : {", ".join(results)}\n}}\n')
            text = source([retyped(t) for t in outputs])
            run = subprocess.run([tad_opt, '-'], input=text, capture_output=True, text=True)
            inferred = re.search(r"inferred type\(s\) (.*?) are incompatible", run.stderr)
            if inferred:
                text = source(re.findall(r"'(tensor<[^']*>)'", inferred.group(1)))
                run = subprocess.run([tad_opt, '-'], input=text, capture_output=True, text=True)
            if run.returncode != 0 or not re.search(r'x(f32|f64)>', text.split('->')[1]):
                continue  # refused by inference, or nothing to differentiate
            run = subprocess.run([tad_opt, '-'] + PIPELINE, input=text,
                                 capture_output=True, text=True, timeout=120)
            messages = [line.split('error:', 1)[1] for line in run.stderr.splitlines()
                        if 'error:' in line]
            problems = []
            if run.returncode not in (0, 1) or 'Stack dump' in run.stderr:
                problems.append('crash')
            problems += [f'invalid IR built: {m.strip()}' for m in messages
                         if re.search(r"'(tensor|linalg|arith|scf|memref)\.", m)]
            problems += [f'size {n} from the dynamic marker' for m in messages
                         for n in re.findall(r'-?\d{12,}', m) if n not in text]
            if problems:
                failed.append(f'BAD pipeline {name}: {"; ".join(problems)}\n{text}')
            elif run.returncode == 0:
                through += 1
    return through, failed


if __name__ == '__main__':
    sys.exit(main())
