"""An independent reference for attention, written straight from the per-token
sums in the seed article 000 (loops over tokens and components, no matrix
products, no NumPy broadcasting), to check the core against.

    S_ij  = (Σ_t q_it k_jt) / √d_k
    a_ij  = exp(S_ij) / Σ_t exp(S_it)
    z_i   = Σ_j a_ij v_j

and, for the backward (chapter 12), the chain rule's per-token sums (`attention_rows_backward`).
"""

from __future__ import annotations

import math


def dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=True))


def attention_rows(Q, K, V, mask=None):
    """Lists in, lists out: returns (Z, A) for one head, token by token."""
    d_k = len(Q[0])
    Z, A = [], []
    for i, q_i in enumerate(Q):
        keep = [True] * len(K) if mask is None else [bool(m) for m in mask[i]]
        S_i = [dot(q_i, k_j) / math.sqrt(d_k) for k_j in K]
        top = max(s for s, m in zip(S_i, keep) if m)
        e = [math.exp(s - top) if m else 0.0 for s, m in zip(S_i, keep)]
        total = sum(e)
        a_i = [x / total for x in e]
        z_i = [sum(a_i[j] * V[j][c] for j in range(len(V))) for c in range(len(V[0]))]
        A.append(a_i)
        Z.append(z_i)
    return Z, A


def matmul(X, W):
    """Row i of X W, one sum at a time."""
    return [[sum(X[i][t] * W[t][c] for t in range(len(W))) for c in range(len(W[0]))] for i in range(len(X))]


def multi_head(X, W_Q, W_K, W_V, W_O, h, X_kv=None):
    """Head r uses columns [r·d_k, (r+1)·d_k); heads concatenated in order, then W_O."""
    X_kv = X if X_kv is None else X_kv
    Q, K, V = matmul(X, W_Q), matmul(X_kv, W_K), matmul(X_kv, W_V)
    d_k, d_v = len(Q[0]) // h, len(V[0]) // h
    Z_cat = [[] for _ in X]
    heads_A = []
    for r in range(h):
        cols = lambda M, d, r=r: [row[r * d : (r + 1) * d] for row in M]  # noqa: E731
        Z_r, A_r = attention_rows(cols(Q, d_k), cols(K, d_k), cols(V, d_v))
        heads_A.append(A_r)
        for i, z in enumerate(Z_r):
            Z_cat[i].extend(z)
    return matmul(Z_cat, W_O), heads_A


def attention_rows_backward(Q, K, V, dZ, mask=None):
    """Lists in, lists out: (dQ, dK, dV) for one head, from the per-token sums of the chain rule.

    dv_j  = Σ_i a_ij dz_i                       (z_i = Σ_j a_ij v_j)
    da_ij = dz_i · v_j
    ds_ij = a_ij (da_ij − Σ_t a_it da_it)      (a_i = softmax(s_i); 0 where masked)
    dq_i  = Σ_j ds_ij k_j / √d_k,   dk_j = Σ_i ds_ij q_i / √d_k
    """
    _, A = attention_rows(Q, K, V, mask)
    d_k, n_q, n_k = len(Q[0]), len(Q), len(K)
    dV = [[sum(A[i][j] * dZ[i][c] for i in range(n_q)) for c in range(len(V[0]))] for j in range(n_k)]
    dA = [[dot(dZ[i], V[j]) for j in range(n_k)] for i in range(n_q)]
    dS = []
    for i in range(n_q):
        through = sum(A[i][t] * dA[i][t] for t in range(n_k))
        dS.append([A[i][j] * (dA[i][j] - through) for j in range(n_k)])
    root = math.sqrt(d_k)
    dQ = [[sum(dS[i][j] * K[j][c] for j in range(n_k)) / root for c in range(d_k)] for i in range(n_q)]
    dK = [[sum(dS[i][j] * Q[i][c] for i in range(n_q)) / root for c in range(d_k)] for j in range(n_k)]
    return dQ, dK, dV
