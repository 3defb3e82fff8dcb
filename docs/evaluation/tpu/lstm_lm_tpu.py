"""LSTM language model training step (2-layer LSTM, cuDNN-style: input projection for all steps at once, then a
lax.scan over time for the recurrence), compiled deviceless for XLA:TPU v5e:2x2. Data parallel: batch split over
a 1-D 'data' mesh of 4 chips, params and Adam state replicated (the model is ~0.2B params). optax.adam, donated.

usage: python lstm_lm_tpu.py OUTDIR [KEY=VALUE ...]
keys: V vocab, E embedding, H hidden, NL layers, T sequence length, B global batch, pdtype (f32|bf16), topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", V=32768, E=2048, H=2048, NL=2, T=512, B=256, pdtype="f32"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32, bf16 = jnp.float32, jnp.bfloat16
PDT = {"f32": f32, "bf16": bf16}[C["pdtype"]]
SDS = jax.ShapeDtypeStruct


def lstm_layer(p, xs):
    """xs: [T, B, E] bf16 -> hs [T, B, H] bf16."""
    Hd = p["wh"].shape[0]
    xw = jnp.einsum("tbe,eg->tbg", xs, p["wx"].astype(bf16), preferred_element_type=f32) + p["b"]
    def cell(carry, xw_t):
        h, c = carry
        g = xw_t + jnp.dot(h.astype(bf16), p["wh"].astype(bf16), preferred_element_type=f32)
        i, f, gg, o = jnp.split(g, 4, axis=-1)
        c = jax.nn.sigmoid(f + 1.0) * c + jax.nn.sigmoid(i) * jnp.tanh(gg)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h.astype(bf16)
    B = xs.shape[1]
    init = (jnp.zeros((B, Hd), f32), jnp.zeros((B, Hd), f32))
    _, hs = jax.lax.scan(cell, init, xw)
    return hs


def loss_fn(params, tokens):
    inp, tgt = tokens[:, :-1], tokens[:, 1:]
    x = params["embed"].astype(bf16)[inp]            # [B, T, E]
    x = jnp.swapaxes(x, 0, 1)                        # [T, B, E]
    for p in params["layers"]:
        x = lstm_layer(p, x)
    x = jnp.swapaxes(x, 0, 1)                        # [B, T, H]
    logits = jnp.einsum("bth,hv->btv", x, params["out"]["w"].astype(bf16), preferred_element_type=f32) + params["out"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, tgt).mean()


def param_shapes():
    V, E, H = C["V"], C["E"], C["H"]
    lay = lambda din: dict(wx=SDS((din, 4 * H), PDT), wh=SDS((H, 4 * H), PDT), b=SDS((4 * H,), PDT))
    return dict(embed=SDS((V, E), PDT), layers=[lay(E if i == 0 else H) for i in range(C["NL"])],
                out=dict(w=SDS((H, V), PDT), b=SDS((V,), PDT)))


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    rep = NamedSharding(mesh, P())
    shard = lambda tree: jax.tree_util.tree_map(lambda l: SDS(l.shape, l.dtype, sharding=rep), tree)
    pshapes = param_shapes()
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    tokens = SDS((C["B"], C["T"] + 1), jnp.int32, sharding=NamedSharding(mesh, P("data", None)))

    def train_step(params, opt_state, tokens):
        loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), tokens.sharding),
                     out_shardings=(sh(params), sh(ostate), {"loss": rep}), donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"LSTM LM training step ({C['NL']} layers, E{C['E']} H{C['H']}, vocab {C['V']}), T={C['T']}, "
                     f"global batch {C['B']}, data parallel over {len(devices)} chips, adam, donated",
                arguments=harness.describe_args(["params", "opt_state", "tokens"], [params, ostate, tokens], mesh))
    return jitted, (params, ostate, tokens), meta


harness.main(build)
