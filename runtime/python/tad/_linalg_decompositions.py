"""Decompositions of ATen's linear-algebra ops onto tad's primitives
``linalg_inv_ex``, ``_linalg_slogdet`` and ``linalg_cholesky_ex``
(dialects/Tad/TadLinearAlgebraOps.td), applied by the importer while
tracing (merged into ``_decompositions.table()``).

(``triangular_solve`` is left unsupported: PyTorch's forward AD of it
uses the whole tangent of ``A`` while its backward projects the gradient on
the triangle, and no one program has both.)

Solves are products with the inverse, triangular ones on the triangle
(``tril``/``triu``, with a unit diagonal for ``unitriangular``) so that the
gradient of the coefficient matrix is projected on it, as PyTorch's. The
Cholesky solves and inverse use ``L L^T`` of the whole factor, as
PyTorch's derivatives do. Results for singular matrices are NaN (PyTorch
raises); the ``_ex`` ops report them in ``info``.

``table()`` returns ``{aten overload: function}``.
"""


def table():
    import torch
    aten = torch.ops.aten
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing

    def mT(x):
        return aten.transpose.int(x, -2, -1)

    def inverse(a):
        return aten.linalg_inv_ex.default(a)[0]

    def eye(a):
        with disable_proxy_modes_tracing():
            return torch.eye(a.shape[-1], dtype=a.dtype)

    def det(a):
        sign, logabsdet, lu, pivots = aten._linalg_slogdet.default(a)
        return aten.mul.Tensor(sign, aten.exp.default(logabsdet)), lu, pivots

    def is_vector_rhs(a, b):
        # ATen's rule: B is a (batch of) vector(s) when it is 1-D or has A's
        # batch shape plus one dimension.
        return b.dim() == 1 or (b.dim() == a.dim() - 1 and
                                tuple(b.shape) == tuple(a.shape[:-1]))

    def apply_inverse(inv, b, left, vector):
        if vector and b.dim() > 1:
            b = aten.unsqueeze.default(b, -1)
            out = aten.matmul.default(inv, b) if left else \
                aten.matmul.default(mT(b), mT(inv))
            return aten.squeeze.dim(out, -1)
        return aten.matmul.default(inv, b) if left else aten.matmul.default(b, inv)

    def solve_ex(a, b, *, left=True, check_errors=False):
        inv, info = aten.linalg_inv_ex.default(a)
        _, _, lu, pivots = aten._linalg_slogdet.default(a)
        return apply_inverse(inv, b, left, is_vector_rhs(a, b)), lu, pivots, info

    def triangle(a, upper, unitriangular):
        if unitriangular:
            strict = aten.triu.default(a, 1) if upper else aten.tril.default(a, -1)
            return aten.add.Tensor(strict, eye(a))
        return aten.triu.default(a) if upper else aten.tril.default(a)

    def solve_triangular(a, b, *, upper, left=True, unitriangular=False):
        return apply_inverse(inverse(triangle(a, upper, unitriangular)), b, left, False)

    def gram(factor, upper):
        # A = L L^T, or U^T U for an upper factor
        return aten.matmul.default(mT(factor), factor) if upper else \
            aten.matmul.default(factor, mT(factor))

    def cholesky(a, upper=False):
        # Of the symmetric part (the same matrix for the symmetric inputs
        # it is defined for, bit for bit): the tangent is symmetrized too,
        # so the JVP is the transpose of the (symmetric) VJP, which
        # PyTorch's OpInfo checks for this op instead of forward AD.
        sym = aten.mul.Tensor(aten.add.Tensor(a, mT(a)), 0.5)
        return aten.linalg_cholesky_ex.default(sym, upper=upper)[0]

    def cholesky_inverse(factor, upper=False):
        return inverse(gram(factor, upper))

    def cholesky_solve(b, factor, upper=False):
        return aten.matmul.default(inverse(gram(factor, upper)), b)

    def lstsq(a, b, rcond=None, *, driver=None):
        # Full-rank least squares through the normal equations: the
        # minimum-norm solution A^T (A A^T)^-1 B of a wide A, else
        # (A^T A)^-1 A^T B. Residuals, rank and singular values are empty,
        # as PyTorch's for the drivers 'gels' and 'gelsy' (CPU's default)
        # and for m <= n; other drivers and tall inputs stay the
        # (unsupported) op.
        m, n = a.shape[-2], a.shape[-1]
        if driver not in (None, "gels", "gelsy") or m > n:
            return NotImplemented
        vector = is_vector_rhs(a, b)
        rhs = aten.unsqueeze.default(b, -1) if vector else b
        at = mT(a)
        if m < n:
            x = aten.matmul.default(at, aten.matmul.default(inverse(aten.matmul.default(a, at)), rhs))
        else:
            x = aten.matmul.default(inverse(aten.matmul.default(at, a)),
                                    aten.matmul.default(at, rhs))
        if vector:
            x = aten.squeeze.dim(x, -1)
        with disable_proxy_modes_tracing():
            empty = torch.zeros(0, dtype=a.dtype)
            rank = torch.zeros(0, dtype=torch.int64)
        return x, empty, rank, empty

    return {
        aten.linalg_lstsq.default: lstsq,
        aten._linalg_det.default: det,
        aten._linalg_solve_ex.default: solve_ex,
        aten.linalg_solve_triangular.default: solve_triangular,
        aten.cholesky.default: cholesky,
        aten.cholesky_inverse.default: cholesky_inverse,
        aten.cholesky_solve.default: cholesky_solve,
    }
