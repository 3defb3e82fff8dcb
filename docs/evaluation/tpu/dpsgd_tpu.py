"""DP-SGD fine-tuning step of a GPT-style language model (pre-LN, GELU MLP, learned positions), compiled deviceless
for XLA:TPU. Per-example gradients by jax.vmap(jax.grad(loss of one sequence)), each example's gradient clipped
to L2 norm CLIP, summed, Gaussian noise (NOISE * CLIP) added, divided by the batch; optax.adam update.
Data parallel: a 1-D 'data' mesh, params and Adam state replicated on every chip, the batch split over 'data';
params and opt state donated.

usage: python dpsgd_tpu.py OUTDIR [KEY=VALUE ...]
keys: L layers, D width, H heads, FF MLP width, V vocabulary, S sequence, B global batch,
      pdtype (f32|bf16), adt (bf16|f32), topo
"""
import harness
C = harness.config(dict(topo="v5e:2x2", L=12, D=768, H=12, FF=3072, V=32768, S=256, B=256,
                        pdtype="f32", adt="bf16"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}
PDT, ADT = DT[C["pdtype"]], DT[C["adt"]]
SDS = jax.ShapeDtypeStruct
CLIP, NOISE = 1.0, 1.1


def layer_norm(x, s, b):
    xf = x.astype(f32)
    m = xf.mean(-1, keepdims=True)
    v = ((xf - m) ** 2).mean(-1, keepdims=True)
    return ((xf - m) * jax.lax.rsqrt(v + 1e-5) * s + b).astype(ADT)


def block(p, x):
    t, d = x.shape
    H = C["H"]
    dh = d // H
    h = layer_norm(x, p["ln1_scale"], p["ln1_bias"])
    q = (h @ p["wq"].astype(ADT)).reshape(t, H, dh)
    k = (h @ p["wk"].astype(ADT)).reshape(t, H, dh)
    v = (h @ p["wv"].astype(ADT)).reshape(t, H, dh)
    sc = jnp.einsum("qhd,khd->hqk", q, k).astype(f32) / np.sqrt(dh)
    sc = jnp.where(jnp.tril(jnp.ones((t, t), bool)), sc, -1e9)
    pr = jax.nn.softmax(sc, -1).astype(ADT)
    x = x + jnp.einsum("hqk,khd->qhd", pr, v).reshape(t, d) @ p["wo"].astype(ADT)
    h = layer_norm(x, p["ln2_scale"], p["ln2_bias"])
    return x + jax.nn.gelu(h @ p["w1"].astype(ADT)) @ p["w2"].astype(ADT)


def param_shapes():
    D, FF, L, V, S = C["D"], C["FF"], C["L"], C["V"], C["S"]
    lay = lambda: dict(ln1_scale=SDS((D,), PDT), ln1_bias=SDS((D,), PDT), wq=SDS((D, D), PDT), wk=SDS((D, D), PDT),
                       wv=SDS((D, D), PDT), wo=SDS((D, D), PDT), ln2_scale=SDS((D,), PDT), ln2_bias=SDS((D,), PDT),
                       w1=SDS((D, FF), PDT), w2=SDS((FF, D), PDT))
    return dict(embed=SDS((V, D), PDT), pos_embed=SDS((S, D), PDT), layers=[lay() for _ in range(L)],
                lnf_scale=SDS((D,), PDT), lnf_bias=SDS((D,), PDT), unembed=SDS((D, V), PDT))


def loss_one(params, tokens, labels):      # one sequence: tokens, labels int32[S]
    x = jnp.take(params["embed"], tokens, axis=0).astype(ADT) + params["pos_embed"].astype(ADT)
    for p in params["layers"]:
        x = block(p, x)
    h = layer_norm(x, params["lnf_scale"], params["lnf_bias"])
    logits = jnp.dot(h, params["unembed"].astype(ADT), preferred_element_type=f32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    rep = NamedSharding(mesh, P())
    shard = lambda tree: jax.tree_util.tree_map(lambda l: SDS(l.shape, l.dtype, sharding=rep), tree)
    pshapes = param_shapes()
    opt = optax.adam(1e-4)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    bs = NamedSharding(mesh, P("data", None))
    batch = {"tokens": SDS((C["B"], C["S"]), jnp.int32, sharding=bs),
             "labels": SDS((C["B"], C["S"]), jnp.int32, sharding=bs)}
    key = SDS((2,), jnp.uint32, sharding=rep)

    def train_step(params, opt_state, batch, key):
        losses, per_ex = jax.vmap(jax.value_and_grad(loss_one), in_axes=(None, 0, 0))(
            params, batch["tokens"], batch["labels"])
        leaves = jax.tree_util.tree_leaves(per_ex)
        sq = sum(jnp.sum(g.astype(f32).reshape(g.shape[0], -1) ** 2, axis=1) for g in leaves)
        scale = jnp.minimum(1.0, CLIP / (jnp.sqrt(sq) + 1e-6))                     # [B]
        summed = jax.tree_util.tree_map(lambda g: jnp.einsum("b,b...->...", scale, g.astype(f32)), per_ex)
        keys = jax.random.split(jax.random.wrap_key_data(key), len(leaves))
        noised = [s + NOISE * CLIP * jax.random.normal(k, s.shape, f32)
                  for s, k in zip(jax.tree_util.tree_leaves(summed), keys)]
        grads = jax.tree_util.tree_unflatten(jax.tree_util.tree_structure(summed),
                                             [(g / C["B"]) for g in noised])
        grads = jax.tree_util.tree_map(lambda g, p: g.astype(p.dtype), grads, params)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": losses.mean()}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), sh(batch), rep),
                     out_shardings=(sh(params), sh(ostate), {"loss": rep}), donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"DP-SGD step (per-example gradients by vmap(grad), clipped, summed, noised) of a GPT-style LM "
                     f"({C['L']} x d{C['D']}, vocab {C['V']}, seq {C['S']}) at global batch {C['B']}, "
                     f"data parallel over {len(devices)} chips with params and Adam state replicated, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch", "key"], [params, ostate, batch, key], mesh))
    return jitted, (params, ostate, batch, key), meta


harness.main(build)
