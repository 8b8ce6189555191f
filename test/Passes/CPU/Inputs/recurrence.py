"""Prints a tad function of N steps of the recurrence s_k = x * s_{k-1} -
s_{k-2} (each value read by the next two steps, as in a Clenshaw sum)."""
import sys

n = int(sys.argv[1])
t = "tensor<64xf32>"
print(f"func.func @f(%x: {t}) -> {t} {{")
print(f"  %p = tad.mul.Tensor %x, %x : ({t}, {t}) -> {t}")
print(f"  %q = tad.tanh %x : {t}")
prev2, prev1 = "%p", "%q"
for k in range(n):
    print(f"  %m{k} = tad.mul.Tensor %x, {prev1} : ({t}, {t}) -> {t}")
    print(f"  %s{k} = tad.sub.Tensor %m{k}, {prev2} : ({t}, {t}) -> {t}")
    prev2, prev1 = prev1, f"%s{k}"
print(f"  return {prev1} : {t}")
print("}")
