"""Neural-ODE classifier training step (discretise-then-optimise): a conv-free latent ODE block. Inputs are
flattened 32x32x3 images, projected to a D-wide state z0; dz/dt = f(t, z) is a 2-hidden-layer tanh MLP (width W,
time appended to its input); z is integrated with NSTEPS fixed RK4 steps in a lax.scan and backpropagated through
the solver; a linear head gives class logits. Compiled deviceless for XLA:TPU v5e:2x2. Data parallel: the
batch split over a 1-D 'data' mesh of 4 chips, params and Adam state replicated. f32 (ODE solvers want it).
optax.adamw, params and opt state donated.

usage: python neural_ode_tpu.py OUTDIR [KEY=VALUE ...]
keys: B global batch, DIN input dim, D state dim, W hidden width, NSTEPS RK4 steps, NC classes, topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", B=8192, DIN=3072, D=1024, W=2048, NSTEPS=16, NC=100))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
SDS = jax.ShapeDtypeStruct


def odefunc(p, t, z):
    tt = jnp.full(z.shape[:-1] + (1,), t, f32)
    h = jnp.tanh(jnp.concatenate([z, tt], -1) @ p["w1"] + p["b1"])
    h = jnp.tanh(h @ p["w2"] + p["b2"])
    return h @ p["w3"] + p["b3"]


def odeint_rk4(p, z0, t0=0.0, t1=1.0):
    n = C["NSTEPS"]
    dt = (t1 - t0) / n
    def step(z, t):
        k1 = odefunc(p, t, z)
        k2 = odefunc(p, t + dt / 2, z + dt / 2 * k1)
        k3 = odefunc(p, t + dt / 2, z + dt / 2 * k2)
        k4 = odefunc(p, t + dt, z + dt * k3)
        return z + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), None
    z, _ = jax.lax.scan(step, z0, t0 + dt * jnp.arange(n, dtype=f32))
    return z


def loss_fn(params, batch):
    z0 = batch["x"] @ params["proj"]["w"] + params["proj"]["b"]
    z1 = odeint_rk4(params["f"], z0)
    logits = z1 @ params["head"]["w"] + params["head"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, batch["y"]).mean()


def param_shapes():
    D, W = C["D"], C["W"]
    return dict(proj=dict(w=SDS((C["DIN"], D), f32), b=SDS((D,), f32)),
                f=dict(w1=SDS((D + 1, W), f32), b1=SDS((W,), f32), w2=SDS((W, W), f32), b2=SDS((W,), f32),
                       w3=SDS((W, D), f32), b3=SDS((D,), f32)),
                head=dict(w=SDS((D, C["NC"]), f32), b=SDS((C["NC"],), f32)))


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    rep = NamedSharding(mesh, P())
    pshapes = param_shapes()
    opt = optax.adamw(1e-3, weight_decay=1e-4)
    shard = lambda tree: jax.tree_util.tree_map(lambda l: SDS(l.shape, l.dtype, sharding=rep), tree)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    B = C["B"]
    batch = dict(x=SDS((B, C["DIN"]), f32, sharding=NamedSharding(mesh, P("data", None))),
                 y=SDS((B,), jnp.int32, sharding=NamedSharding(mesh, P("data"))))

    def train_step(params, opt_state, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), sh(batch)),
                     out_shardings=(sh(params), sh(ostate), {"loss": rep}), donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"neural-ODE classifier training step (state {C['D']}, f width {C['W']}, {C['NSTEPS']} RK4 steps "
                     f"backpropagated), global batch {B}, data parallel over {len(devices)} chips, f32, adamw, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch"], [params, ostate, batch], mesh))
    return jitted, (params, ostate, batch), meta


harness.main(build)
