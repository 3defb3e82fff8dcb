"""Physics-informed neural network (PINN) for the 2-D Poisson equation, one training step, XLA:CPU.

u(x, y) is a tanh MLP (2 -> WIDTH x LAYERS -> 1). The loss is the mean squared PDE residual
laplacian(u) + f at N interior collocation points, where the Laplacian is the trace of jax.hessian of u with
respect to (x, y), jax.vmap'ed over the points, plus a boundary term (u = 0) at NB boundary points.
f = 2 pi^2 sin(pi x) sin(pi y). optax.adam; one jitted train step (jax.value_and_grad w.r.t. the weights).

Knobs (command line KEY=VALUE, defaults below):
  N      interior collocation points   NB     boundary points
  WIDTH  hidden width                  LAYERS hidden layers      dtype f32 | bf16 (whole model)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(N=131072, NB=16384, WIDTH=64, LAYERS=4, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
N, NB, WIDTH, LAYERS = CFG["N"], CFG["NB"], CFG["WIDTH"], CFG["LAYERS"]
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["dtype"]]


def init(key):
    sizes = [2] + [WIDTH] * LAYERS + [1]
    ks = jax.random.split(key, len(sizes) - 1)
    return [{"w": (jax.random.normal(k, (i, o), jnp.float32) * np.sqrt(1.0 / i)).astype(DT),
             "b": jnp.zeros((o,), DT)} for k, i, o in zip(ks, sizes[:-1], sizes[1:])]


def u(params, xy):                       # one point xy [2] -> scalar
    h = xy.astype(DT)
    for p in params[:-1]:
        h = jnp.tanh(h @ p["w"] + p["b"])
    return (h @ params[-1]["w"] + params[-1]["b"])[0].astype(jnp.float32)


def source(xy):
    return 2 * np.pi ** 2 * jnp.sin(np.pi * xy[..., 0]) * jnp.sin(np.pi * xy[..., 1])


def residual(params, xy):
    lap = jnp.trace(jax.hessian(u, argnums=1)(params, xy))
    return lap + source(xy)


def loss_fn(params, xy_in, xy_bd):
    r = jax.vmap(residual, in_axes=(None, 0))(params, xy_in)
    ub = jax.vmap(u, in_axes=(None, 0))(params, xy_bd)
    return jnp.mean(r ** 2) + 100.0 * jnp.mean(ub ** 2)


opt = optax.adam(1e-3)


@jax.jit
def train_step(params, opt_state, xy_in, xy_bd):
    loss, grads = jax.value_and_grad(loss_fn)(params, xy_in, xy_bd)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def boundary_points(key, n):
    t = jax.random.uniform(key, (n,))
    side = jnp.arange(n) % 4
    x = jnp.where(side == 0, 0.0, jnp.where(side == 1, 1.0, t))
    y = jnp.where(side == 2, 0.0, jnp.where(side == 3, 1.0, t))
    return jnp.stack([x, y], axis=1)


params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
xy_in = jax.random.uniform(jax.random.PRNGKey(1), (N, 2), jnp.float32)
xy_bd = boundary_points(jax.random.PRNGKey(2), NB)
if CFG["ma"]:
    ma = train_step.lower(params, opt_state, xy_in, xy_bd).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, points {xy_in.nbytes / 2**30:.3f} GiB",
      flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = train_step(params, opt_state, xy_in, xy_bd)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
