"""Importer decompositions of neural-network ATen ops that tad has no op
for: ``renorm``, ``multi_margin_loss``, ``multilabel_margin_loss_forward``,
``_embedding_bag(_forward_only)`` and
``_scaled_dot_product_attention_forward`` (see ``_decompositions`` for the
contract). Hinges are ``where(z > 0, z, 0)``: no gradient at z == 0,
as in ATen's backward kernels.

``table()`` returns ``{aten overload: function}``.
"""

import math


def table():
    import torch
    aten = torch.ops.aten
    from ._decomposition_helpers import arange, as_float
    from torch.fx.experimental.proxy_tensor import disable_proxy_modes_tracing

    def hinge(z):
        return aten.where.ScalarOther(aten.gt.Scalar(z, 0.0), z, 0.0)

    def reduce(loss, reduction):
        # 0: none, 1: mean, 2: sum (at::Reduction)
        if reduction == 1:
            return aten.mean.default(loss)
        if reduction == 2:
            return aten.sum.default(loss)
        return loss

    def renorm(x, p, dim, maxnorm):
        # each slice along `dim` whose p-norm exceeds maxnorm scaled to it
        if x.dim() == 0 or not x.is_floating_point():
            return NotImplemented
        dim %= x.dim()
        others = [d for d in range(x.dim()) if d != dim]
        norm = aten.linalg_vector_norm.default(x, p, others, True)
        scale = aten.div.Tensor(aten.full_like.default(norm, float(maxnorm)),
                                aten.add.Scalar(norm, 1e-7))
        factor = aten.where.ScalarOther(aten.gt.Scalar(norm, float(maxnorm)), scale, 1.0)
        return aten.mul.Tensor(x, factor)

    def multi_margin_loss(x, target, p=1, margin=1, weight=None, reduction=1):
        if not x.is_floating_point() or p not in (1, 2):
            return NotImplemented
        vector = x.dim() <= 1
        x2 = aten.reshape.default(x, [1, -1]) if vector else x
        c = x2.shape[1]
        t = aten.reshape.default(target, [-1, 1])
        own = aten.gather.default(x2, 1, t)                                    # x[y]
        z = hinge(aten.add.Tensor(aten.rsub.Scalar(own, float(margin)), x2))  # margin - x[y] + x[i]
        if p == 2:
            z = aten.mul.Tensor(z, z)
        if weight is not None:
            z = aten.mul.Tensor(z, aten.reshape.default(
                aten.index_select.default(weight, 0, aten.reshape.default(t, [-1])), [-1, 1]))
        z = aten.where.ScalarSelf(aten.eq.Tensor(as_float(t), arange(c, [1, c])), 0.0, z)
        loss = aten.div.Scalar(aten.sum.dim_IntList(z, [1], False), float(c))
        if vector:
            loss = aten.reshape.default(loss, [])
        return reduce(loss, reduction)

    def multilabel_margin_loss_forward(x, target, reduction):
        # targets: the class indices before the first -1 of each row
        if not x.is_floating_point():
            return NotImplemented
        vector = x.dim() <= 1
        x2 = aten.reshape.default(x, [1, -1]) if vector else x
        t = aten.reshape.default(target, list(x2.shape))
        c = x2.shape[1]
        ended = aten.cumsum.default(as_float(aten.eq.Scalar(t, -1)), 1)
        valid = aten.lt.Scalar(ended, 0.5)                                     # [n, j]
        tf = as_float(t)
        hit = aten.logical_and.default(
            aten.unsqueeze.default(valid, -1),
            aten.eq.Tensor(aten.unsqueeze.default(tf, -1), arange(c, [1, 1, c])))  # [n, j, i]
        is_target = aten.gt.Scalar(aten.sum.dim_IntList(as_float(hit), [1], False), 0.5)
        own = aten.gather.default(x2, 1, aten.clamp_min.default(t, 0))        # x[y_j]
        z = hinge(aten.add.Tensor(aten.rsub.Scalar(aten.unsqueeze.default(own, -1), 1.0),
                                  aten.unsqueeze.default(x2, 1)))               # 1 - x[y_j] + x[i]
        keep = aten.logical_and.default(aten.unsqueeze.default(valid, -1),
                                        aten.logical_not.default(
                                            aten.unsqueeze.default(is_target, 1)))
        z = aten.where.ScalarOther(keep, z, 0.0)
        loss = aten.div.Scalar(aten.sum.dim_IntList(z, [1, 2], False), float(c))
        is_target = aten._to_copy.default(is_target, dtype=x.dtype)
        if vector:
            loss = aten.reshape.default(loss, [])
        return reduce(loss, reduction), aten.reshape.default(is_target, list(x.shape))

    def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                     need_attn_weights=False, is_causal=False):
        # softmax(q k^T / sqrt(E) + mask) v; the weights as a second result
        if dropout_p > 0.0 or not need_attn_weights or not query.is_floating_point():
            return NotImplemented
        if attn_mask is not None and attn_mask.dtype == torch.bool:
            zero = aten.mul.Scalar(aten._to_copy.default(attn_mask, dtype=query.dtype), 0.0)
            attn_mask = aten.where.ScalarOther(attn_mask, zero, -math.inf)
        q = aten.div.Scalar(query, math.sqrt(query.shape[-1]))
        scores = aten.matmul.default(q, aten.transpose.int(key, -2, -1))
        if is_causal:
            n, s = query.shape[-2], key.shape[-2]
            with disable_proxy_modes_tracing():
                causal = torch.ones(n, s, dtype=torch.bool).tril()
            scores = aten.where.ScalarOther(causal, scores, -math.inf)
        if attn_mask is not None:
            scores = aten.add.Tensor(scores, attn_mask)
        attn = aten._softmax.default(scores, -1, False)
        return aten.matmul.default(attn, value), attn

    def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                      per_sample_weights=None, include_last_offset=False, padding_idx=-1):
        # bag b sums (mode 0), averages (1) or takes the max (2) of the
        # rows weight[indices[i]] for offsets[b] <= i < offsets[b + 1]
        # (bounds in the graph); padding_idx entries take no part; an
        # empty bag is 0. Results: output, offset2bag, bag_size and
        # max_indices (the argmax for mode 2, zeros otherwise).
        if scale_grad_by_freq or indices.dim() != 1 or offsets.dim() != 1 or \
                not weight.is_floating_point():
            return NotImplemented
        n, dims = indices.shape[0], weight.shape[1]
        starts = as_float(offsets)
        count = offsets.shape[0]
        if include_last_offset:
            ends = aten.slice.Tensor(starts, 0, 1, count)
            starts = aten.slice.Tensor(starts, 0, 0, count - 1)
        else:
            ends = aten.cat.default([aten.slice.Tensor(starts, 0, 1, count),
                                     aten.full_like.default(aten.slice.Tensor(starts, 0, 0, 1),
                                                            float(n))])
        at = arange(n, [1, n])
        inside = aten.logical_and.default(aten.le.Tensor(aten.unsqueeze.default(starts, 1), at),
                                          aten.lt.Tensor(at, aten.unsqueeze.default(ends, 1)))
        mask = inside
        if padding_idx is not None and padding_idx >= 0:
            mask = aten.logical_and.default(mask, aten.unsqueeze.default(
                aten.ne.Scalar(indices, padding_idx), 0))
        rows = aten.index_select.default(weight, 0, indices)                  # [n, D]
        if per_sample_weights is not None:
            rows = aten.mul.Tensor(rows, aten.unsqueeze.default(per_sample_weights, 1))
        sizes = aten.sum.dim_IntList(as_float(mask), [1], False)              # [B]
        some = aten.unsqueeze.default(aten.gt.Scalar(sizes, 0.5), 1)
        if mode == 2:
            cand = aten.where.ScalarOther(aten.unsqueeze.default(mask, -1),
                                          aten.unsqueeze.default(rows, 0), -math.inf)
            values, arg = aten.max.dim(cand, 1, False)                        # [B, D]
            out = aten.where.ScalarOther(some, values, 0.0)
            max_indices = aten.gather.default(
                aten.expand.default(aten.unsqueeze.default(indices, 1), [n, dims]), 0, arg)
        else:
            out = aten.mm.default(aten._to_copy.default(mask, dtype=weight.dtype), rows)
            if mode == 1:
                out = aten.div.Tensor(out, aten.unsqueeze.default(
                    aten.clamp_min.default(sizes, 1.0), 1))
            max_indices = aten._to_copy.default(aten.mul.Scalar(sizes, 0.0), dtype=torch.int64)
        offset2bag = aten._to_copy.default(aten.sub.Scalar(aten.sum.dim_IntList(
            as_float(aten.le.Tensor(aten.unsqueeze.default(starts, 1), at)), [0], False), 1.0),
            dtype=torch.int64)
        return out, offset2bag, aten._to_copy.default(sizes, dtype=torch.int64), max_indices

    return {
        aten._embedding_bag_forward_only.default: embedding_bag,
        aten._embedding_bag.default: embedding_bag,
        aten.renorm.default: renorm,
        aten.multi_margin_loss.default: multi_margin_loss,
        aten.multilabel_margin_loss_forward.default: multilabel_margin_loss_forward,
        aten._scaled_dot_product_attention_forward.default: scaled_dot_product_attention,
    }
