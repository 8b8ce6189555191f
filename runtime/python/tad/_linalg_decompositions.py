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

    pytree = torch.utils._pytree
    half_floats = (torch.float16, torch.bfloat16)

    def in_float32(fn):
        """``fn`` evaluated on float32 copies of its 16-bit float tensors,
        float32 results rounded back (integer ones, pivots or info, kept):
        the eliminations, reflections and rotations below would otherwise
        round every step to 8 (bfloat16) or 11 (float16) bits and overflow
        float16's range, where ATen's 16-bit linear algebra (when it has
        any) computes in float32."""
        def wrapped(*args, **kwargs):
            half = next((a.dtype for a in args
                         if isinstance(a, torch.Tensor) and a.dtype in half_floats), None)
            if half is None:
                return fn(*args, **kwargs)
            out = fn(*[aten._to_copy.default(a, dtype=torch.float32)
                       if isinstance(a, torch.Tensor) and a.dtype in half_floats else a
                       for a in args], **kwargs)
            if out is NotImplemented:
                return out
            return pytree.tree_map(
                lambda r: aten._to_copy.default(r, dtype=half)
                if isinstance(r, torch.Tensor) and r.dtype == torch.float32 else r, out)
        return wrapped

    def mT(x):
        return aten.transpose.int(x, -2, -1)

    def inverse(a):
        return aten.linalg_inv_ex.default(a)[0]

    def identity(m, k=None, dtype=torch.float64):
        # A constant identity (torch.eye has no bfloat16 kernel in some
        # PyTorch versions: made in float64 and converted, exactly).
        with disable_proxy_modes_tracing():
            unit = torch.eye(m, m if k is None else k, dtype=torch.float64)
            return unit if dtype == torch.float64 else unit.to(dtype)

    def eye(a):
        return identity(a.shape[-1], dtype=a.dtype)

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

    def lu_factor(a, pivot=True):
        """Packed LU factors, 1-based pivots (int32) and the permutation
        (``P^T A = L U``, P^T A's row i is A's row perm[i]) of a batch of
        m x n matrices: Gaussian elimination with partial pivoting written
        as traced ops (sizes are static), so that its derivatives are the
        LU factorization's for the pivots chosen. The pivot of column k is
        the first row (from k on) of largest magnitude, as LAPACK's."""
        m, n = a.shape[-2], a.shape[-1]
        batch = tuple(a.shape[:-2])
        with disable_proxy_modes_tracing():
            rows = torch.arange(m)
            cols = torch.arange(n)
        perm = aten.expand.default(rows, batch + (m,))
        pivots = []
        x = a
        for k in range(min(m, n)):
            if pivot:
                column = aten.abs.default(aten.select.int(x, -1, k))
                column = aten.where.ScalarOther(aten.ge.Scalar(rows, k), column, -1.0)
                p = aten.unsqueeze.default(aten.max.dim(column, -1)[1], -1)
                swap = aten.where.self(aten.eq.Scalar(rows, k), p,
                                       aten.where.self(aten.eq.Tensor(rows, p),
                                                       aten.full_like.default(p, k), rows))
                x = aten.gather.default(x, -2, aten.expand.default(
                    aten.unsqueeze.default(swap, -1), batch + (m, n)))
                perm = aten.gather.default(perm, -1, swap)
                pivots.append(aten.add.Scalar(p, 1))
            else:
                with disable_proxy_modes_tracing():
                    pivots.append(torch.full(batch + (1,), k + 1, dtype=torch.int64))
            diagonal = aten.unsqueeze.default(
                aten.select.int(aten.select.int(x, -1, k), -1, k), -1)
            below = aten.gt.Scalar(rows, k)
            factor = aten.where.ScalarOther(
                below, aten.div.Tensor(aten.select.int(x, -1, k), diagonal), 0.0)
            right = aten.where.ScalarOther(aten.gt.Scalar(cols, k), aten.select.int(x, -2, k), 0.0)
            x = aten.sub.Tensor(x, aten.mul.Tensor(aten.unsqueeze.default(factor, -1),
                                                   aten.unsqueeze.default(right, -2)))
            with disable_proxy_modes_tracing():
                multipliers = (rows.unsqueeze(-1) > k) & (cols == k)
            x = aten.where.self(multipliers, aten.unsqueeze.default(factor, -1), x)
        pivots = aten.cat.default(pivots, -1) if pivots else perm
        return x, aten._to_copy.default(pivots, dtype=torch.int32), perm

    def permutation_matrix(perm, m, dtype):
        # P[j, i] = 1 where perm[i] == j
        with disable_proxy_modes_tracing():
            rows = torch.arange(m).unsqueeze(-1)
        return aten._to_copy.default(aten.eq.Tensor(aten.unsqueeze.default(perm, -2), rows),
                                     dtype=dtype)

    def unpack(lu, m, n):
        k = min(m, n)
        unit = identity(m, k, dtype=lu.dtype)
        lower = aten.add.Tensor(aten.slice.Tensor(aten.tril.default(lu, -1), -1, 0, k), unit)
        upper = aten.slice.Tensor(aten.triu.default(lu), -2, 0, k)
        return lower, upper

    def lu_factor_ex(a, *, pivot=True, check_errors=False):
        lu, pivots, _ = lu_factor(a, pivot)
        with disable_proxy_modes_tracing():
            info = torch.zeros(tuple(a.shape[:-2]), dtype=torch.int32)
        return lu, pivots, info

    def linalg_lu(a, *, pivot=True):
        m, n = a.shape[-2], a.shape[-1]
        lu, _, perm = lu_factor(a, pivot)
        lower, upper = unpack(lu, m, n)
        return permutation_matrix(perm, m, a.dtype), lower, upper

    def permutation_of(pivots, m):
        # The row swaps k <-> pivots[k] - 1, in order, applied to 0..m-1.
        batch = tuple(pivots.shape[:-1])
        with disable_proxy_modes_tracing():
            rows = torch.arange(m)
        perm = aten.expand.default(rows, batch + (m,))
        pivots = aten._to_copy.default(pivots, dtype=torch.int64)
        for k in range(pivots.shape[-1]):
            p = aten.sub.Scalar(aten.slice.Tensor(pivots, -1, k, k + 1), 1)
            swap = aten.where.self(aten.eq.Scalar(rows, k), p,
                                   aten.where.self(aten.eq.Tensor(rows, p),
                                                   aten.full_like.default(p, k), rows))
            perm = aten.gather.default(perm, -1, swap)
        return perm

    def lu_unpack(lu, pivots, unpack_data=True, unpack_pivots=True):
        if not (unpack_data and unpack_pivots):
            return NotImplemented
        m, n = lu.shape[-2], lu.shape[-1]
        lower, upper = unpack(lu, m, n)
        return permutation_matrix(permutation_of(pivots, m), m, lu.dtype), lower, upper

    def lu_solve(lu, pivots, b, *, left=True, adjoint=False):
        n = lu.shape[-1]
        lower, upper = unpack(lu, n, n)
        p = permutation_matrix(permutation_of(pivots, n), n, lu.dtype)
        a = aten.matmul.default(p, aten.matmul.default(lower, upper))
        if adjoint:
            a = mT(a)
        return apply_inverse(inverse(a), b, left, False)

    def matrix_exp(a):
        # Scaling and squaring with a fixed scale 2^-16 (the scale cannot
        # depend on values in a trace): a degree-10 Taylor polynomial of
        # exp(A / 2^16) (Horner), squared 16 times. Accurate to about
        # 2^16 ulp relative for ||A|| up to ~1e3; derivatives are the
        # approximant's. The 16 squarings would square float32's rounding
        # errors 16 times too: float32, bfloat16 and float16 run in float64
        # and are rounded once.
        if a.dtype in (torch.float32, torch.bfloat16, torch.float16):
            narrow = a.dtype
            wide = aten._to_copy.default(a, dtype=torch.float64)
            return aten._to_copy.default(matrix_exp(wide), dtype=narrow)
        unit = identity(a.shape[-1], dtype=a.dtype)
        x = aten.mul.Tensor(a, 2.0 ** -16)
        r = unit
        for k in range(10, 0, -1):
            r = aten.add.Tensor(unit, aten.div.Tensor(aten.matmul.default(x, r), float(k)))
        for _ in range(16):
            r = aten.matmul.default(r, r)
        return r

    def householder_product(a, tau):
        # Q = H_0 ... H_{k-1}, H_i = I - tau_i v_i v_i^T with v_i = e_i plus
        # the entries of column i below the diagonal; its first n columns.
        m, n = a.shape[-2], a.shape[-1]
        with disable_proxy_modes_tracing():
            rows = torch.arange(m)
        unit = identity(m, dtype=a.dtype)
        q = unit
        for i in range(tau.shape[-1]):
            v = aten.where.ScalarOther(aten.gt.Scalar(rows, i), aten.select.int(a, -1, i), 0.0)
            v = aten.unsqueeze.default(aten.add.Tensor(v, aten.select.int(unit, -1, i)), -1)
            t = aten.unsqueeze.default(aten.unsqueeze.default(aten.select.int(tau, -1, i), -1), -1)
            h = aten.sub.Tensor(unit, aten.mul.Tensor(t, aten.matmul.default(v, mT(v))))
            q = aten.matmul.default(q, h)
        return aten.slice.Tensor(q, -1, 0, n)

    def qr(a, mode="reduced"):
        # Householder QR as traced ops, with LAPACK's (geqrf's) reflectors:
        # beta = -sign(alpha) ||x||, no reflection for a last 1-row column,
        # so that the signs of R's diagonal are LAPACK's.
        if mode not in ("reduced", "r"):
            return NotImplemented
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        with disable_proxy_modes_tracing():
            rows = torch.arange(m)
        unit = identity(m, dtype=a.dtype)
        r, q = a, unit
        for j in range(min(m - 1, n)):
            x = aten.where.ScalarOther(aten.ge.Scalar(rows, j), aten.select.int(r, -1, j), 0.0)
            alpha = aten.select.int(x, -1, j)
            norm = aten.sqrt.default(aten.sum.dim_IntList(aten.mul.Tensor(x, x), [-1]))
            beta = aten.where.self(aten.ge.Scalar(alpha, 0.0), aten.neg.default(norm), norm)
            v = aten.sub.Tensor(x, aten.mul.Tensor(aten.unsqueeze.default(beta, -1),
                                                   aten.select.int(unit, -1, j)))
            v = aten.unsqueeze.default(v, -1)
            scale = aten.div.Tensor(2.0, aten.sum.dim_IntList(aten.mul.Tensor(v, v), [-2, -1], True))
            h = aten.sub.Tensor(unit, aten.mul.Tensor(scale, aten.matmul.default(v, mT(v))))
            r = aten.matmul.default(h, r)
            q = aten.matmul.default(q, h)
        r = aten.slice.Tensor(aten.triu.default(r), -2, 0, k)
        q = aten.slice.Tensor(q, -1, 0, k)
        if mode == "r":
            with disable_proxy_modes_tracing():
                empty = torch.zeros(0, dtype=a.dtype)
            return empty, r
        return q, r

    def symmetric_eigen(sym, descending=False, sweeps=10):
        """Eigenvalues (sorted) and eigenvectors (columns, in that order) of
        a batch of symmetric matrices: cyclic Jacobi rotations (a fixed
        number of sweeps, as the sizes are static and the values unknown),
        then a selection sort. Their derivatives are the eigen-
        decomposition's once converged; repeated eigenvalues make the
        rotation angles' derivatives NaN."""
        n = sym.shape[-1]
        batch = tuple(sym.shape[:-2])
        unit = identity(n, dtype=sym.dtype)
        with disable_proxy_modes_tracing():
            positions = torch.arange(n)
        x, vectors = sym, unit
        for _ in range(sweeps if n > 1 else 0):
            for p in range(n - 1):
                for q in range(p + 1, n):
                    with disable_proxy_modes_tracing():
                        diagonal = torch.zeros(n, n, dtype=sym.dtype)
                        diagonal[p, p] = diagonal[q, q] = 1.0
                        skew = torch.zeros(n, n, dtype=sym.dtype)
                        skew[p, q], skew[q, p] = 1.0, -1.0

                    def entry(i, j):
                        return aten.select.int(aten.select.int(x, -2, i), -1, j)
                    theta = aten.mul.Tensor(aten.atan2.default(
                        aten.mul.Tensor(entry(p, q), 2.0),
                        aten.sub.Tensor(entry(q, q), entry(p, p))), 0.5)
                    c = aten.unsqueeze.default(aten.unsqueeze.default(aten.cos.default(theta), -1), -1)
                    s_ = aten.unsqueeze.default(aten.unsqueeze.default(aten.sin.default(theta), -1), -1)
                    rotation = aten.add.Tensor(unit, aten.add.Tensor(
                        aten.mul.Tensor(aten.sub.Scalar(c, 1.0), diagonal),
                        aten.mul.Tensor(s_, skew)))
                    x = aten.matmul.default(mT(rotation), aten.matmul.default(x, rotation))
                    vectors = aten.matmul.default(vectors, rotation)
        values = aten.sum.dim_IntList(aten.mul.Tensor(x, unit), [-1])
        if n == 0:
            return values, aten.expand.default(vectors, batch + (0, 0))
        out, order, taken = [], [], None
        for _ in range(n):
            if descending:
                masked = values if taken is None else \
                    aten.where.ScalarSelf(taken, float("-inf"), values)
                value, index = aten.max.dim(masked, -1, True)
            else:
                masked = values if taken is None else \
                    aten.where.ScalarSelf(taken, float("inf"), values)
                value, index = aten.min.dim(masked, -1, True)
            out.append(value)
            order.append(index)
            hit = aten.eq.Tensor(positions, index)
            taken = hit if taken is None else aten.logical_or.default(taken, hit)
        order = aten.unsqueeze.default(aten.cat.default(order, -1), -2)
        vectors = aten.gather.default(aten.expand.default(vectors, batch + (n, n)), -1,
                                      aten.expand.default(order, batch + (n, n)))
        return aten.cat.default(out, -1), vectors

    def svd(a, full_matrices=False, compute_uv=True, driver=None):
        # From the eigendecomposition of the smaller Gram matrix: S the
        # square roots of its eigenvalues (descending), V its eigenvectors,
        # U = A V / S (accurate for well-conditioned inputs of distinct
        # singular values). A complete U or V of a non-square matrix stays
        # the (unsupported) op. (The defaults are the schema's: ATen leaves
        # out arguments equal to them, as svdvals' full_matrices=False.)
        m, n = a.shape[-2], a.shape[-1]
        if compute_uv and full_matrices and m != n:
            return NotImplemented
        if m < n:
            v, s, uh = svd(mT(a), full_matrices, compute_uv, driver)
            return (mT(uh), s, mT(v)) if compute_uv else (v, s, uh)
        values, vectors = symmetric_eigen(aten.matmul.default(mT(a), a), descending=True)
        s = aten.sqrt.default(values)
        if not compute_uv:
            with disable_proxy_modes_tracing():
                empty = torch.zeros(0, dtype=a.dtype)
            return empty, s, empty
        u = aten.div.Tensor(aten.matmul.default(a, vectors), aten.unsqueeze.default(s, -2))
        return u, s, mT(vectors)

    return {op: fn if fn is matrix_exp else in_float32(fn) for op, fn in {
        aten._linalg_svd.default: svd,
        aten.linalg_householder_product.default: householder_product,
        aten.linalg_qr.default: qr,
        aten.linalg_matrix_exp.default: matrix_exp,
        aten.linalg_lu_factor_ex.default: lu_factor_ex,
        aten.linalg_lu.default: linalg_lu,
        aten.lu_unpack.default: lu_unpack,
        aten.linalg_lu_solve.default: lu_solve,
        aten.linalg_lstsq.default: lstsq,
        aten._linalg_det.default: det,
        aten._linalg_solve_ex.default: solve_ex,
        aten.linalg_solve_triangular.default: solve_triangular,
        aten.cholesky.default: cholesky,
        aten.cholesky_inverse.default: cholesky_inverse,
        aten.cholesky_solve.default: cholesky_solve,
    }.items()}
