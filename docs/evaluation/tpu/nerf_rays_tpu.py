"""NeRF training step on a batch of camera rays (original NeRF MLP: 8 x 256 ReLU layers with a skip at layer 5,
positional encoding of xyz (10 bands) and view direction (4 bands), density head, 128-wide colour branch;
stratified samples along each ray, volume rendering, photometric MSE), compiled deviceless for XLA:TPU v5e:2x2.
Data parallel: the ray batch split over a 1-D 'data' mesh of 4 chips, the small MLP and its Adam state replicated.
Everything in f32 (as NeRF code usually is). optax.adam, params and opt state donated.

usage: python nerf_rays_tpu.py OUTDIR [KEY=VALUE ...]
keys: R global rays per step, NS samples per ray, W width, DEPTH layers, LX / LD encoding bands, topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", R=16384, NS=192, W=256, DEPTH=8, LX=10, LD=4))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
SDS = jax.ShapeDtypeStruct
SKIP = 4


def encode(x, L):
    freqs = 2.0 ** jnp.arange(L, dtype=f32) * jnp.pi
    xb = x[..., None, :] * freqs[:, None]                       # [..., L, 3]
    enc = jnp.concatenate([jnp.sin(xb), jnp.cos(xb)], -1).reshape(*x.shape[:-1], -1)
    return jnp.concatenate([x, enc], -1)


def mlp(params, pts, dirs):
    ex = encode(pts, C["LX"])
    ed = encode(dirs, C["LD"])
    h = ex
    for i, p in enumerate(params["trunk"]):
        if i == SKIP + 1:
            h = jnp.concatenate([h, ex], -1)
        h = jax.nn.relu(h @ p["w"] + p["b"])
    sigma = jax.nn.softplus(h @ params["sigma"]["w"] + params["sigma"]["b"])[..., 0]
    feat = h @ params["feat"]["w"] + params["feat"]["b"]
    hc = jax.nn.relu(jnp.concatenate([feat, ed], -1) @ params["view"]["w"] + params["view"]["b"])
    rgb = jax.nn.sigmoid(hc @ params["rgb"]["w"] + params["rgb"]["b"])
    return rgb, sigma


def render(params, rays_o, rays_d, t_rand, near=2.0, far=6.0):
    NS = C["NS"]
    t = near + (far - near) * (jnp.arange(NS, dtype=f32) + t_rand) / NS      # [R, NS] stratified
    pts = rays_o[:, None, :] + rays_d[:, None, :] * t[..., None]             # [R, NS, 3]
    dirs = jnp.broadcast_to((rays_d / jnp.linalg.norm(rays_d, axis=-1, keepdims=True))[:, None, :], pts.shape)
    rgb, sigma = mlp(params, pts, dirs)
    delta = jnp.concatenate([t[:, 1:] - t[:, :-1], jnp.full_like(t[:, :1], 1e10)], -1)
    alpha = 1.0 - jnp.exp(-sigma * delta)
    trans = jnp.cumprod(jnp.concatenate([jnp.ones_like(alpha[:, :1]), 1.0 - alpha + 1e-10], -1), -1)[:, :-1]
    w = alpha * trans
    return (w[..., None] * rgb).sum(1)


def loss_fn(params, batch):
    rgb = render(params, batch["rays_o"], batch["rays_d"], batch["t_rand"])
    return jnp.mean((rgb - batch["target"]) ** 2)


def param_shapes():
    W = C["W"]
    dx = 3 + 6 * C["LX"]; dd = 3 + 6 * C["LD"]
    lin = lambda i, o: dict(w=SDS((i, o), f32), b=SDS((o,), f32))
    trunk = [lin(dx if i == 0 else (W + dx if i == SKIP + 1 else W), W) for i in range(C["DEPTH"])]
    return dict(trunk=trunk, sigma=lin(W, 1), feat=lin(W, W), view=lin(W + dd, W // 2), rgb=lin(W // 2, 3))


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    rep = NamedSharding(mesh, P())
    pshapes = param_shapes()
    opt = optax.adam(5e-4)
    shard = lambda tree: jax.tree_util.tree_map(lambda l: SDS(l.shape, l.dtype, sharding=rep), tree)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    R = C["R"]
    b2 = NamedSharding(mesh, P("data", None))
    batch = dict(rays_o=SDS((R, 3), f32, sharding=b2), rays_d=SDS((R, 3), f32, sharding=b2),
                 t_rand=SDS((R, C["NS"]), f32, sharding=b2), target=SDS((R, 3), f32, sharding=b2))

    def train_step(params, opt_state, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), sh(batch)),
                     out_shardings=(sh(params), sh(ostate), {"loss": rep}), donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"NeRF training step ({C['DEPTH']} x {C['W']} MLP), {R} rays x {C['NS']} samples per step, "
                     f"data parallel over {len(devices)} chips, f32, adam, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch"], [params, ostate, batch], mesh))
    return jitted, (params, ostate, batch), meta


harness.main(build)
