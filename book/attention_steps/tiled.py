"""Attention without the n × n matrix: online softmax and tiled attention.

softmax(s)·V needs the largest score (for stability) and the sum of the
exponentials (to normalise), and both seem to need the whole row of scores
first. They do not. Read the scores a block at a time and keep, for every
query, a running summary of what has been seen so far:

    m    (..., n_q)        the largest score so far
    ℓ    (..., n_q)        Σ exp(s_j − m) over the scores so far
    acc  (..., n_q, d_v)   Σ exp(s_j − m) v_j over the scores so far

When a block brings a larger maximum m', everything kept so far was measured
against the old m: multiplying ℓ and acc by exp(m − m') re-measures it against
m'. At the end, acc / ℓ is exactly softmax(s)·V. This is the idea behind
FlashAttention; here it is in NumPy, one readable step at a time:

    state = start(n_q, d_v)                      m = −∞, ℓ = 0, acc = 0
    state = update(state, S_block, V_block)      fold in one block of scores
    Z = finish(state)                            acc / ℓ

    online_softmax(S, block_size)                softmax(S), from a running max and sum
    online_weighted_sum(S, V, block_size)        softmax(S) V, block by block
    online_softmax_steps(s, V, block_size)       every step, for the walk-through
    tiled_attention(Q, K, V, block_size, mask)   = scaled_dot_product_attention's Z,
                                                 never holding an n × n matrix
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import as_mask, as_matrix, check_batch, float_dtype, positive_int, same_size


# ----------------------------------------------------------------------------- the running state
@dataclass(frozen=True)
class SoftmaxState:
    """What online softmax remembers about the scores read so far, per query row. Chapter 11.

    m (..., n_q): the running maximum (−∞ before any score);
    l (..., n_q): ℓ = Σ exp(s_j − m), the running sum, measured against m;
    acc (..., n_q, d_v): Σ exp(s_j − m) v_j, the unnormalised output.
    """

    m: np.ndarray
    l: np.ndarray  # noqa: E741  (ℓ in the text)
    acc: np.ndarray

    @property
    def output(self) -> np.ndarray:
        """acc / ℓ: the softmax-weighted sum of the values read so far, (..., n_q, d_v)."""
        return finish(self)


def start(n_q, d_v, *, batch: tuple[int, ...] = (), dtype=np.float64) -> SoftmaxState:
    """The state before any score: m = −∞, ℓ = 0, acc = 0 for n_q queries and values of width d_v. Chapter 11."""
    n_q, d_v = positive_int("n_q", n_q), positive_int("d_v", d_v)
    batch = tuple(batch)
    return SoftmaxState(
        m=np.full(batch + (n_q,), -np.inf, dtype=dtype),
        l=np.zeros(batch + (n_q,), dtype=dtype),
        acc=np.zeros(batch + (n_q, d_v), dtype=dtype),
    )


def update(state: SoftmaxState, S_block, V_block) -> SoftmaxState:
    """Fold one block of scores into the state; returns the new state. Chapter 11.

    S_block (..., n_q, b) holds b scores per query (−∞ where masked), V_block
    (..., b, d_v) the b value rows they weigh. With m' = max(m, max of the block):

        ℓ'   = ℓ · exp(m − m')   + Σ_j exp(s_j − m')
        acc' = acc · exp(m − m') + Σ_j exp(s_j − m') v_j

    A row that has so far seen only −∞ keeps m' = −∞, ℓ' = 0, acc' = 0.
    """
    if not isinstance(state, SoftmaxState):
        raise TypeError(f"state must be a SoftmaxState (from start() or update()), got {type(state).__name__}")
    S_block = np.asarray(S_block)
    if S_block.dtype == bool or S_block.dtype.kind not in "iuf" or S_block.ndim < 2:
        raise TypeError(
            f"S_block must be a real array of shape (..., n_q, b), got dtype {S_block.dtype} and shape {S_block.shape}"
        )
    if np.isnan(S_block).any() or (S_block == np.inf).any():
        raise ValueError("S_block must hold finite scores or −∞ (masked), but it contains NaN or +∞")
    V_block = as_matrix("V_block", V_block, min_ndim=2)
    same_size("the rows of the state (n_q) and of S_block", "state", state.m.shape[-1], "S_block", S_block.shape[-2])
    same_size(
        "the columns of S_block (b) and the rows of V_block", "S_block", S_block.shape[-1], "V_block", V_block.shape[-2]
    )
    same_size("the width of acc (d_v) and of V_block", "state", state.acc.shape[-1], "V_block", V_block.shape[-1])
    dtype = state.acc.dtype
    return _update(state, S_block.astype(dtype, copy=False), V_block.astype(dtype, copy=False))


def _update(state: SoftmaxState, S_block: np.ndarray, V_block: np.ndarray) -> SoftmaxState:
    """`update` without the checks: the inner loop of the block-by-block functions."""
    m_new = np.maximum(state.m, S_block.max(axis=-1))
    # Measure against 0 where nothing finite has been seen yet, so that
    # exp(−∞ − (−∞)) never turns into NaN: those rows get exp(−∞) = 0.
    ref = np.where(np.isfinite(m_new), m_new, 0.0)
    rescale = np.exp(state.m - ref)
    P = np.exp(S_block - ref[..., None])
    return SoftmaxState(
        m=m_new,
        l=state.l * rescale + P.sum(axis=-1),
        acc=state.acc * rescale[..., None] + P @ V_block,
    )


def finish(state: SoftmaxState) -> np.ndarray:
    """acc / ℓ: softmax-weighted sum of every value folded in, (..., n_q, d_v). Chapter 11."""
    if np.any(state.l == 0):
        raise ValueError("finish: some query has seen no score that is not masked (ℓ = 0); nothing to normalise")
    return state.acc / state.l[..., None]


# ----------------------------------------------------------------------------- block by block
def _blocks(n: int, block_size: int):
    """Slices [0, b), [b, 2b), …: the last one is shorter when b does not divide n."""
    return [slice(i, min(i + block_size, n)) for i in range(0, n, block_size)]


def online_softmax(S, block_size) -> np.ndarray:
    """softmax(S) along the last axis from a running max and sum, reading `block_size` columns at a time. Chapter 11.

    S (..., n) -> A (..., n). The first pass keeps only m and ℓ per row (no
    copy of the row); the second writes exp(s − m) / ℓ. Equals `softmax(S)`.
    """
    S = as_matrix("S", S, min_ndim=1)
    S = S.astype(float_dtype(S), copy=False)
    b = positive_int("block_size", block_size)
    m = np.full(S.shape[:-1], -np.inf, dtype=S.dtype)
    l = np.zeros(S.shape[:-1], dtype=S.dtype)  # noqa: E741
    for cols in _blocks(S.shape[-1], b):
        block = S[..., cols]
        m_new = np.maximum(m, block.max(axis=-1))
        l = l * np.exp(m - m_new) + np.exp(block - m_new[..., None]).sum(axis=-1)  # noqa: E741
        m = m_new
    return np.exp(S - m[..., None]) / l[..., None]


def online_weighted_sum(S, V, block_size) -> np.ndarray:
    """softmax(S) V in one pass over blocks of `block_size` keys: S (..., n_q, n_k), V (..., n_k, d_v) -> (..., n_q, d_v). Chapter 11.

    Equals `weighted_sum(softmax(S), V)` without ever forming the weights A.
    """
    S, V = as_matrix("S", S, min_ndim=2), as_matrix("V", V, min_ndim=2)
    same_size("the columns of S (n_k) and the rows of V", "S", S.shape[-1], "V", V.shape[-2])
    check_batch("S", S, "V", V)
    b = positive_int("block_size", block_size)
    dtype = float_dtype(S, V)
    S, V = S.astype(dtype, copy=False), V.astype(dtype, copy=False)
    batch = np.broadcast_shapes(S.shape[:-2], V.shape[:-2])
    state = start(S.shape[-2], V.shape[-1], batch=batch, dtype=dtype)
    for keys in _blocks(S.shape[-1], b):
        state = _update(state, S[..., keys], V[..., keys, :])
    return finish(state)


@dataclass(frozen=True)
class OnlineSoftmaxStep:
    """One block of the walk-through: which keys, their scores, and the state before and after. Chapter 11.

    `rescale` = exp(m_before − m): the factor by which the old ℓ and acc shrink.
    """

    keys: slice
    scores: np.ndarray
    m_before: float
    m: float
    rescale: float
    l_before: float
    l: float  # noqa: E741
    acc: np.ndarray

    @property
    def output(self) -> np.ndarray:
        """acc / ℓ after this step: the answer if the row ended here."""
        return self.acc / self.l


def online_softmax_steps(s, V, block_size) -> list[OnlineSoftmaxStep]:
    """Every step of online softmax on one row of scores s (n,) against values V (n, d_v). Chapter 11.

    For the chapter's walk-through: after the last step, `steps[-1].output`
    equals softmax(s) V and `steps[-1].l` equals Σ exp(s − max s).
    """
    s, V = as_matrix("s", s, ndim=1), as_matrix("V", V, ndim=2)
    same_size("the number of scores in s and the rows of V", "s", s.shape[0], "V", V.shape[0])
    b = positive_int("block_size", block_size)
    dtype = float_dtype(s, V)
    s, V = s.astype(dtype, copy=False), V.astype(dtype, copy=False)
    state, steps = start(1, V.shape[1], dtype=dtype), []
    for keys in _blocks(s.shape[0], b):
        new = _update(state, s[None, keys], V[keys])
        m_before, m = float(state.m[0]), float(new.m[0])
        steps.append(
            OnlineSoftmaxStep(
                keys=keys,
                scores=s[keys].copy(),
                m_before=m_before,
                m=m,
                rescale=float(np.exp(m_before - m)),
                l_before=float(state.l[0]),
                l=float(new.l[0]),
                acc=new.acc[0].copy(),
            )
        )
        state = new
    return steps


# ----------------------------------------------------------------------------- tiled attention
def tiled_attention(Q, K, V, block_size, mask=None) -> np.ndarray:
    """softmax(QKᵀ / √d_k) V, one (block × block) tile of scores at a time; returns Z. Chapter 11.

    Q (..., n_q, d_k), K (..., n_k, d_k), V (..., n_k, d_v); leading batch axes
    broadcast as in `scaled_dot_product_attention`, and `mask` (bool,
    broadcastable to (..., n_q, n_k), True where the query may attend to the
    key) means the same. Returns Z (..., n_q, d_v), equal to that function's Z.

    Queries are taken `block_size` rows at a time; for each query block the
    keys and values stream past `block_size` rows at a time through `update`.
    Besides Z itself, the memory in use at once is one query block, its queries and
    its state (block_size × (d_k + d_v)), and a few (block_size × block_size) tiles:
    block_size·(d_k + d_v) + block_size², whatever n, never n².
    """
    Q, K, V = (as_matrix(name, x, min_ndim=2) for name, x in (("Q", Q), ("K", K), ("V", V)))
    b = positive_int("block_size", block_size)
    same_size("the columns of Q and K (d_k)", "Q", Q.shape[-1], "K", K.shape[-1])
    same_size("the number of rows (n_k) of K and V", "K", K.shape[-2], "V", V.shape[-2])
    check_batch("Q", Q, "K", K)
    check_batch("K", K, "V", V)
    check_batch("Q", Q, "V", V)
    dtype = float_dtype(Q, K, V)
    Q, K, V = (x.astype(dtype, copy=False) for x in (Q, K, V))
    n_q, n_k, d_k, d_v = Q.shape[-2], K.shape[-2], Q.shape[-1], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    # as_mask checks every row has a True and returns a broadcast *view*: no n × n copy.
    keep = None if mask is None else as_mask(mask, batch + (n_q, n_k))

    inv_sqrt_d_k = dtype.type(1.0 / np.sqrt(d_k))
    Z = np.empty(batch + (n_q, d_v), dtype=dtype)
    for rows in _blocks(n_q, b):
        Q_block = Q[..., rows, :] * inv_sqrt_d_k  # scale the queries once, not every tile
        state = start(rows.stop - rows.start, d_v, batch=batch, dtype=dtype)
        for keys in _blocks(n_k, b):
            S_tile = Q_block @ np.swapaxes(K[..., keys, :], -1, -2)  # (..., block, block)
            if keep is not None:
                S_tile = np.where(keep[..., rows, keys], S_tile, dtype.type(-np.inf))
            state = _update(state, S_tile, V[..., keys, :])
        Z[..., rows, :] = finish(state)
    return Z


__all__ = [
    "SoftmaxState",
    "OnlineSoftmaxStep",
    "start",
    "update",
    "finish",
    "online_softmax",
    "online_weighted_sum",
    "online_softmax_steps",
    "tiled_attention",
]
