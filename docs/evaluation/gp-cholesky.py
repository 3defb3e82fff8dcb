"""Exact Gaussian-process regression: one hyperparameter-fitting step on the marginal likelihood, XLA:CPU.

N training points with D features. The kernel is an ARD squared-exponential (one lengthscale per feature,
a signal variance) plus Gaussian noise; the N x N kernel matrix K is built densely, factorised with
jnp.linalg.cholesky, and the negative log marginal likelihood 0.5 y^T K^-1 y + sum(log diag L) + N/2 log 2pi
is computed with jax.scipy.linalg.cho_solve. Its gradient w.r.t. the log-hyperparameters (jax.value_and_grad)
goes to optax.adam; one jitted train step.

Knobs (command line KEY=VALUE, defaults below):
  N      training points              D      input features
  dtype  f32 | f64 (f64 turns on jax_enable_x64)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax

CFG = dict(N=12288, D=8, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
if CFG["dtype"] == "f64":
    jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp, jax.scipy.linalg, optax

N, D = CFG["N"], CFG["D"]
DT = {"f32": jnp.float32, "f64": jnp.float64}[CFG["dtype"]]


def kernel(hp, x1, x2):
    ls = jnp.exp(hp["log_ls"])
    a, b = x1 / ls, x2 / ls
    d2 = jnp.sum(a ** 2, 1)[:, None] + jnp.sum(b ** 2, 1)[None, :] - 2.0 * a @ b.T
    return jnp.exp(2.0 * hp["log_sf"]) * jnp.exp(-0.5 * jnp.maximum(d2, 0.0))


def neg_log_marginal_likelihood(hp, x, y):
    n = x.shape[0]
    K = kernel(hp, x, x) + (jnp.exp(2.0 * hp["log_sn"]) + 1e-4) * jnp.eye(n, dtype=x.dtype)
    L = jnp.linalg.cholesky(K)
    alpha = jax.scipy.linalg.cho_solve((L, True), y)
    return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(L))) + 0.5 * n * jnp.log(2 * jnp.pi)


opt = optax.adam(1e-2)


@jax.jit
def train_step(hp, opt_state, x, y):
    loss, grads = jax.value_and_grad(neg_log_marginal_likelihood)(hp, x, y)
    updates, opt_state = opt.update(grads, opt_state, hp)
    return optax.apply_updates(hp, updates), opt_state, loss / x.shape[0]


kx, kw, kn = jax.random.split(jax.random.PRNGKey(0), 3)
x = jax.random.normal(kx, (N, D), DT)
w = jax.random.normal(kw, (D,), DT)
y = jnp.sin(x @ w) + 0.1 * jax.random.normal(kn, (N,), DT)
hp = {"log_ls": jnp.zeros((D,), DT), "log_sf": jnp.zeros((), DT), "log_sn": jnp.asarray(np.log(0.1), DT)}
opt_state = opt.init(hp)
if CFG["ma"]:
    ma = train_step.lower(hp, opt_state, x, y).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"N {N}, kernel matrix {N * N * x.dtype.itemsize / 2**30:.2f} GiB", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    hp, opt_state, loss = train_step(hp, opt_state, x, y)
    print(f"step {i}: nlml/N {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
