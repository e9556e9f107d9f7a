"""The tiny attention layer: loss and gradients against a literal numpy version and finite differences,
both optimizers' updates, the saturated and stuck shares, determinism, and overflow without NaN or exceptions."""

import math
import random
import time

import numpy as np
import pytest

from pycore import train


def np_loss_and_grads(wq, wk, batch, c):
    """The model exactly as stated, one example at a time: q = x_q W_Q, K = X W_K, s = K q / c, p = softmax(s),
    o = p X (the values are the keys' inputs), loss ‖o − x_t‖² / D; the gradient through the values and
    softmax's Jacobian. Returns the loss, dL/dW_Q, dL/dW_K and the saturated and stuck shares."""
    wq, wk = np.array(wq), np.array(wk)
    loss, dwq, dwk, saturated, stuck = 0.0, np.zeros_like(wq), np.zeros_like(wk), 0, 0
    size = len(batch)
    for ex in batch:
        xq, x, t = np.array(ex.query), np.array(ex.keys), ex.target
        q, k = xq @ wq, x @ wk
        s = k @ q / c
        e = np.exp(s - s.max())
        p = e / e.sum()
        o = p @ x
        loss += np.sum((o - x[t]) ** 2) / train.D
        g = 2 * (o - x[t]) / train.D                   # dL/do
        jac = np.diag(p) - np.outer(p, p)              # dp/ds
        ds = jac @ (x @ g) / size                      # dL/ds = J (V g)
        dq, dk = ds @ k / c, np.outer(ds, q) / c       # dL/dq, dL/dk_j (rows)
        dwq += np.outer(xq, dq)
        dwk += x.T @ dk
        saturated += p.max() > train.SATURATED
        stuck += p.max() > train.SATURATED and p.argmax() != t
    return loss / size, dwq, dwk, saturated / size, stuck / size


def np_adam(w, g, m, v, t, lr):
    """One bias-corrected Adam update in numpy; returns the new w, m, v."""
    m = train.BETA1 * m + (1 - train.BETA1) * g
    v = train.BETA2 * v + (1 - train.BETA2) * g**2
    return w - lr * (m / (1 - train.BETA1**t)) / (np.sqrt(v / (1 - train.BETA2**t)) + train.EPS), m, v


def close(a, b, rel=1e-12):
    """Entrywise equal within rel of the largest entry of b."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and np.allclose(a, b, rtol=rel, atol=rel * np.abs(b).max())


def batch(seed, step):
    stream = train.batches(seed)
    stream.ensure(step + 1)
    return stream.batches[step]


def test_the_api_the_page_builds_on():
    assert (train.D, train.N, train.BATCH, train.SIGMA, train.STEPS) == (8, 8, 8, 0.5, 200)
    assert train.DK_DEFAULT == 64 and train.DIVISORS == ("none", "sqrt", "dk")
    assert set(train.LR) == {"sgd", "adam"}
    t = train.trainer(train.DK_DEFAULT, "sqrt", "adam", train.LR["adam"], 1)
    assert t is train.trainer(train.DK_DEFAULT, "sqrt", "adam", train.LR["adam"], 1)
    assert isinstance(t, train.Trainer) and t.ensure(3) and t.done == 3
    assert len(t.losses) == len(t.saturated) == len(t.stuck) == len(t.grad_q) == 3


def test_a_batch_is_the_task_as_stated():
    for step in range(3):
        for ex in batch(11, step):
            assert len(ex.keys) == train.N and all(len(x) == train.D for x in ex.keys)
            assert 0 <= ex.target < train.N and len(ex.query) == train.D
            noise = (np.array(ex.query) * math.sqrt(1 + train.SIGMA**2) - np.array(ex.keys[ex.target])) / train.SIGMA
            assert np.abs(noise).max() < 6
    xs = np.array([ex.keys for s in range(100) for ex in batch(12, s)])
    assert abs(xs.mean()) < 0.03 and xs.std() == pytest.approx(1, abs=0.03)


def test_queries_keys_and_their_projections_start_with_unit_variance_entries():
    examples = [ex for s in range(400) for ex in batch(13, s)]
    xq = np.array([ex.query for ex in examples])
    assert xq.var() == pytest.approx(1, abs=0.03), "x_t + σε has variance 1 + σ² = 1.25 unless rescaled"
    wq, wk = (np.array(w) for w in train.initial_weights(512, 6))
    q = xq @ wq
    k = np.array([ex.keys for ex in examples[:400]]).reshape(-1, train.D) @ wk
    assert q.var() == pytest.approx(1, abs=0.1) and k.var() == pytest.approx(1, abs=0.1)


def test_initial_weights_have_fan_in_variance_and_are_shared_by_the_divisors():
    wq, wk = train.initial_weights(256, 5)
    assert np.array(wq).shape == np.array(wk).shape == (train.D, 256)
    assert np.var(wq) * train.D == pytest.approx(1, abs=0.1) and np.var(wk) * train.D == pytest.approx(1, abs=0.1)
    runs = [train.Trainer(256, d, "sgd", 0.1, 5) for d in train.DIVISORS]
    assert all(r.wq == wq and r.wk == wk for r in runs)


def states():
    """(weights, batch, c) at the start and after 30 unscaled SGD steps (large, partly saturated scores)."""
    out = []
    for dk in (16, 64):
        wq, wk = train.initial_weights(dk, 3)
        for divisor in train.DIVISORS:
            out.append((wq, wk, batch(3, 0), train.rows.divisor_value(dk, divisor)))
    run = train.Trainer(64, "none", "sgd", train.LR["sgd"], 3)
    run.ensure(30)
    out.append((run.wq, run.wk, batch(3, 30), 1.0))
    return out


@pytest.mark.parametrize("wq,wk,b,c", states())
def test_loss_and_gradients_match_numpy(wq, wk, b, c):
    loss, dwq, dwk, share, stuck = train.loss_and_grads(wq, wk, b, c)
    ref = np_loss_and_grads(wq, wk, b, c)
    assert loss == pytest.approx(ref[0], rel=1e-12)
    assert close(dwq, ref[1]) and close(dwk, ref[2])
    assert (share, stuck) == ref[3:]


def test_the_saturated_share_matches_numpy_where_some_rows_saturate():
    wq, wk = train.initial_weights(64, 4)
    shares = []
    for step in range(20):
        b = batch(4, step)
        share = train.loss_and_grads(wq, wk, b, 1.0)[3]
        assert share == np_loss_and_grads(wq, wk, b, 1.0)[3]
        shares.append(share)
    assert 0 < min(shares) < max(shares) < 1
    assert all(train.loss_and_grads(wq, wk, batch(4, s), 8.0)[3] == 0 for s in range(20))


@pytest.mark.parametrize("divisor", train.DIVISORS)
def test_gradients_match_central_differences(divisor):
    dk = 16
    wq, wk = train.initial_weights(dk, 6)
    b, c = batch(6, 0), train.rows.divisor_value(dk, divisor)
    _, dwq, dwk = train.loss_and_grads(wq, wk, b, c)[:3]
    rng = random.Random(divisor)
    h = 1e-6
    for which, grad in ((0, dwq), (1, dwk)):
        for _ in range(4):
            i, j = rng.randrange(train.D), rng.randrange(dk)
            up, down = [[row[:] for row in w] for w in (wq, wk)], [[row[:] for row in w] for w in (wq, wk)]
            up[which][i][j] += h
            down[which][i][j] -= h
            numeric = (train.loss_and_grads(*up, b, c)[0] - train.loss_and_grads(*down, b, c)[0]) / (2 * h)
            assert numeric == pytest.approx(grad[i][j], rel=1e-5, abs=1e-8), (which, i, j)


def test_one_sgd_step_matches_numpy():
    run = train.Trainer(64, "sqrt", "sgd", 0.3, 8)
    wq, wk = np.array(run.wq), np.array(run.wk)
    _, dwq, dwk, _, _ = np_loss_and_grads(wq, wk, batch(8, 0), 8.0)
    run.ensure(1)
    assert close(run.wq, wq - 0.3 * dwq) and close(run.wk, wk - 0.3 * dwk)


def test_two_adam_steps_match_numpy():
    run = train.Trainer(64, "dk", "adam", 0.02, 9)
    w = [np.array(run.wq), np.array(run.wk)]
    m, v = [np.zeros_like(w[0]), np.zeros_like(w[1])], [np.zeros_like(w[0]), np.zeros_like(w[1])]
    for t in (1, 2):
        grads = np_loss_and_grads(w[0], w[1], batch(9, t - 1), 64.0)[1:3]
        for i in (0, 1):
            w[i], m[i], v[i] = np_adam(w[i], grads[i], m[i], v[i], t, 0.02)
    run.ensure(2)
    assert close(run.wq, w[0]) and close(run.wk, w[1])


@pytest.mark.parametrize("optimizer", train.OPTIMIZERS)
def test_a_short_default_run_matches_numpy_step_by_step(optimizer):
    """The 20 steps the browser is compared against: every loss equals a numpy training loop's."""
    steps, lr, seed = 20, train.LR[optimizer], 1
    for divisor in train.DIVISORS:
        c = train.rows.divisor_value(train.DK_DEFAULT, divisor)
        w = [np.array(x) for x in train.initial_weights(train.DK_DEFAULT, seed)]
        m, v = [np.zeros_like(x) for x in w], [np.zeros_like(x) for x in w]
        expected = []
        for t in range(steps):
            loss, *grads, _, _ = np_loss_and_grads(w[0], w[1], batch(seed, t), c)
            expected.append(loss)
            for i in (0, 1):
                if optimizer == "sgd":
                    w[i] = w[i] - lr * grads[i]
                else:
                    w[i], m[i], v[i] = np_adam(w[i], grads[i], m[i], v[i], t + 1, lr)
        run = train.trainer(train.DK_DEFAULT, divisor, optimizer, lr, seed)
        run.ensure(steps)
        assert all(math.isfinite(x) for x in run.losses[:steps])
        assert np.allclose(run.losses[:steps], expected, rtol=1e-9, atol=0), divisor


def test_same_seed_same_losses_and_a_run_split_by_deadlines_equals_one_unsplit():
    whole = train.Trainer(64, "sqrt", "adam", train.LR["adam"], 10)
    whole.ensure(40)
    again = train.Trainer(64, "sqrt", "adam", train.LR["adam"], 10)
    calls = 0
    while not again.ensure(40, deadline=time.perf_counter()):  # a deadline already passed: one step per call
        calls += 1
    assert calls == 39
    assert again.losses == whole.losses and again.saturated == whole.saturated
    assert again.wq == whole.wq and again.wk == whole.wk
    other = train.Trainer(64, "sqrt", "adam", train.LR["adam"], 11)
    other.ensure(40)
    assert other.losses != whole.losses


def test_overflowing_scores_give_an_inf_loss_and_no_gradients():
    wq, wk = train.initial_weights(16, 2)
    huge = [[x * 1e160 for x in row] for row in wq]
    assert train.loss_and_grads(huge, huge, batch(2, 0), 1.0) == (math.inf, None, None, 1.0, 1.0)
    assert train.loss_and_grads(huge, [[math.inf] * 16] * train.D, batch(2, 0), 1.0) == (math.inf, None, None, 1.0, 1.0)


def test_a_row_saturated_on_a_wrong_key_passes_almost_nothing_back():
    """The stall: unscaled scores at d_k = 64 put a row's weight on a wrong key, and its gradient all but vanishes
    (the numbers are tiny differences of tiny numbers, so numpy agrees to 1e-6 rather than 1e-12)."""
    wq, wk = train.initial_weights(64, 7)
    for step in range(40):
        for ex in batch(7, step):
            _, dwq, _, saturated, stuck = train.loss_and_grads(wq, wk, [ex], 1.0)
            if stuck:
                ref = np_loss_and_grads(wq, wk, [ex], 1.0)
                assert close(dwq, ref[1], rel=1e-6)
                unsaturated = [e for e in batch(7, step) if not train.loss_and_grads(wq, wk, [e], 1.0).saturated]
                assert unsaturated and train.norm(dwq) < 0.05 * min(
                    train.norm(train.loss_and_grads(wq, wk, [e], 1.0).dwq) for e in unsaturated)
                return
    pytest.fail("no stuck row in 40 batches of unscaled scores at d_k = 64")


def test_a_run_whose_weights_overflow_stops_at_inf_without_nan_or_exception():
    run = train.Trainer(64, "none", "sgd", 0.5, 3)
    run.ensure(5)
    run.wq = [[x * 1e160 for x in row] for row in run.wq]
    run.wk = [[x * 1e160 for x in row] for row in run.wk]
    run.ensure(12)
    assert run.diverged == 5 and all(math.isfinite(x) for x in run.losses[:5])
    assert run.losses[5:] == [math.inf] * 7 and run.saturated[5:] == run.stuck[5:] == [1.0] * 7
    assert run.grad_q[5:] == [0.0] * 7
    frozen = [row[:] for row in run.wq]
    run.ensure(20)
    assert run.wq == frozen and run.losses[-1] == math.inf


def test_the_gradient_readout_is_the_norm_of_the_gradient_toward_w_q():
    run = train.Trainer(16, "sqrt", "sgd", 0.5, 4)
    dwq = np_loss_and_grads(run.wq, run.wk, batch(4, 0), 4.0)[1]
    run.ensure(1)
    assert run.grad_q[0] == pytest.approx(np.linalg.norm(dwq), rel=1e-12)
