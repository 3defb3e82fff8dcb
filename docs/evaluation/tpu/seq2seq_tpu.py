"""Encoder-decoder transformer (T5/BART-style: pre-LN, encoder self-attention, decoder causal self-attention and
cross-attention to the encoder output, tied embedding; layers stacked and run with lax.scan) training step for summarisation-style data (long source,
shorter target), compiled deviceless for XLA:TPU v5e:2x2. FSDP: every 2-D weight split on its first axis over a
1-D 'data' mesh of 4 chips, batch split over 'data'. optax.adamw, params and opt state donated. No remat.

usage: python seq2seq_tpu.py OUTDIR [KEY=VALUE ...]
keys: LE encoder layers, LD decoder layers, D width, H heads, FF MLP width, V vocab, S source len, T target len,
      B global batch, pdtype (f32|bf16), topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", LE=6, LD=6, D=1024, H=16, FF=4096, V=32128, S=1024, T=256, B=64,
                        pdtype="f32"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32, bf16 = jnp.float32, jnp.bfloat16
PDT = {"f32": f32, "bf16": bf16}[C["pdtype"]]
SDS = jax.ShapeDtypeStruct
ACT = None   # set in build: sharding constraint on [B, T, D] activations


def ln(x, p):
    xf = x.astype(f32)
    m = xf.mean(-1, keepdims=True)
    v = ((xf - m) ** 2).mean(-1, keepdims=True)
    return ((xf - m) * jax.lax.rsqrt(v + 1e-6) * p["s"] + p["b"]).astype(bf16)


def mha(p, xq, xkv, causal):
    b, tq, d = xq.shape
    tk = xkv.shape[1]
    H = C["H"]; dh = d // H
    q = (xq @ p["wq"].astype(bf16)).reshape(b, tq, H, dh)
    k = (xkv @ p["wk"].astype(bf16)).reshape(b, tk, H, dh)
    v = (xkv @ p["wv"].astype(bf16)).reshape(b, tk, H, dh)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(f32) / np.sqrt(dh)
    if causal:
        s = jnp.where(jnp.tril(jnp.ones((tq, tk), bool)), s, -1e9)
    pr = jax.nn.softmax(s, axis=-1).astype(bf16)
    o = jnp.einsum("bhqk,bkhd->bqhd", pr, v).reshape(b, tq, d)
    return o @ p["wo"].astype(bf16)


def mlp(p, x):
    return jax.nn.gelu(x @ p["w1"].astype(bf16)) @ p["w2"].astype(bf16)


def enc_layer(p, x):
    x = x + mha(p["attn"], ln(x, p["ln1"]), ln(x, p["ln1"]), False)
    return ACT(x + mlp(p["mlp"], ln(x, p["ln2"])))


def dec_layer(p, y, enc):
    h = ln(y, p["ln1"])
    y = y + mha(p["self"], h, h, True)
    y = y + mha(p["cross"], ln(y, p["ln2"]), enc, False)
    return ACT(y + mlp(p["mlp"], ln(y, p["ln3"])))


def loss_fn(params, batch):
    emb = params["embed"].astype(bf16)
    x = ACT(emb[batch["src"]])
    x, _ = jax.lax.scan(lambda h, p: (enc_layer(p, h), None), x, params["enc"])
    enc = ln(x, params["enc_ln"])
    y = ACT(emb[batch["tgt_in"]])
    y, _ = jax.lax.scan(lambda h, p: (dec_layer(p, h, enc), None), y, params["dec"])
    y = ln(y, params["dec_ln"])
    logits = jnp.einsum("btd,vd->btv", y, emb, preferred_element_type=f32)
    l = optax.softmax_cross_entropy_with_integer_labels(logits, batch["tgt_out"])
    return (l * batch["mask"]).sum() / batch["mask"].sum()


def param_shapes():
    D, FF, V = C["D"], C["FF"], C["V"]
    lnp = lambda: dict(s=SDS((D,), PDT), b=SDS((D,), PDT))
    att = lambda: dict(wq=SDS((D, D), PDT), wk=SDS((D, D), PDT), wv=SDS((D, D), PDT), wo=SDS((D, D), PDT))
    ml = lambda: dict(w1=SDS((D, FF), PDT), w2=SDS((FF, D), PDT))
    stack = lambda tree, n: jax.tree_util.tree_map(lambda l: SDS((n,) + l.shape, l.dtype), tree)
    enc = stack(dict(ln1=lnp(), attn=att(), ln2=lnp(), mlp=ml()), C["LE"])
    dec = stack(dict(ln1=lnp(), self=att(), ln2=lnp(), cross=att(), ln3=lnp(), mlp=ml()), C["LD"])
    return dict(embed=SDS((V, D), PDT), enc=enc, enc_ln=lnp(), dec=dec, dec_ln=lnp())


def build(devices):
    global ACT
    mesh = Mesh(np.array(devices), ("data",))

    def rule(shape, stacked):   # FSDP: first weight axis (after the layer axis of a stack) that divides
        if len(shape) < 2 + stacked:
            return P()
        for i, n in enumerate(shape):
            if i >= stacked and n % len(devices) == 0 and n > 1:
                return P(*([None] * i), "data")
        return P()
    shard = lambda tree: jax.tree_util.tree_map_with_path(
        lambda path, l: SDS(l.shape, l.dtype, sharding=NamedSharding(
            mesh, rule(l.shape, int(any(getattr(k, "key", None) in ("enc", "dec") for k in path))))), tree)
    pshapes = param_shapes()
    opt = optax.adamw(3e-4, weight_decay=0.01)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    b2 = NamedSharding(mesh, P("data", None))
    B, S, T = C["B"], C["S"], C["T"]
    batch = dict(src=SDS((B, S), jnp.int32, sharding=b2), tgt_in=SDS((B, T), jnp.int32, sharding=b2),
                 tgt_out=SDS((B, T), jnp.int32, sharding=b2), mask=SDS((B, T), f32, sharding=b2))
    ACT = lambda t: jax.lax.with_sharding_constraint(t, NamedSharding(mesh, P("data", None, None)))

    def train_step(params, opt_state, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), sh(batch)),
                     out_shardings=(sh(params), sh(ostate), {"loss": NamedSharding(mesh, P())}),
                     donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"encoder-decoder transformer training step ({C['LE']}+{C['LD']} layers, d{C['D']}, {C['H']} heads, "
                     f"FF {C['FF']}, vocab {C['V']}), source {S}, target {T}, global batch {B}, FSDP over "
                     f"{len(devices)} chips, adamw, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch"], [params, ostate, batch], mesh))
    return jitted, (params, ostate, batch), meta


harness.main(build)
