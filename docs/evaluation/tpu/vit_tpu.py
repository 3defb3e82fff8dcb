"""ViT image-classification training step (pre-LN transformer encoder on image patches + a class token),
compiled deviceless for XLA:TPU. Params and Adam state FSDP-sharded over a 1-D 'data' mesh (every 2-D+
weight split on its first axis), images and labels split over 'data'. optax.adamw, params and opt state donated.

usage: python vit_tpu.py OUTDIR [KEY=VALUE ...]
keys: R image side (pixels), PS patch size, L layers, D width, H heads, FF MLP width, NC classes, B global batch,
      pdtype (params, f32|bf16), adt (activations, bf16|f32), topo
"""
import harness
C = harness.config(dict(topo="v5e:2x2", R=512, PS=16, L=24, D=1024, H=16, FF=4096, NC=1000, B=192,
                        pdtype="f32", adt="bf16"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}
PDT, ADT = DT[C["pdtype"]], DT[C["adt"]]
SDS = jax.ShapeDtypeStruct


def layer_norm(x, s, b):
    xf = x.astype(f32)
    m = xf.mean(-1, keepdims=True)
    v = ((xf - m) ** 2).mean(-1, keepdims=True)
    return ((xf - m) * jax.lax.rsqrt(v + 1e-6) * s + b).astype(ADT)


def block(p, x):
    b, t, d = x.shape
    H = C["H"]
    dh = d // H
    h = layer_norm(x, p["ln1_scale"], p["ln1_bias"])
    qkv = h @ p["wqkv"].astype(ADT) + p["bqkv"].astype(ADT)
    q, k, v = jnp.split(qkv.reshape(b, t, 3, H, dh), 3, axis=2)
    q, k, v = q[:, :, 0], k[:, :, 0], v[:, :, 0]
    sc = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(f32) / np.sqrt(dh)
    pr = jax.nn.softmax(sc, axis=-1).astype(ADT)
    o = jnp.einsum("bhqk,bkhd->bqhd", pr, v).reshape(b, t, d)
    x = x + o @ p["wo"].astype(ADT) + p["bo"].astype(ADT)
    h = layer_norm(x, p["ln2_scale"], p["ln2_bias"])
    h = jax.nn.gelu(h @ p["w1"].astype(ADT) + p["b1"].astype(ADT))
    return x + h @ p["w2"].astype(ADT) + p["b2"].astype(ADT)


def param_shapes():
    D, FF, L, PS, NC = C["D"], C["FF"], C["L"], C["PS"], C["NC"]
    T = (C["R"] // PS) ** 2 + 1
    lay = lambda: dict(ln1_scale=SDS((D,), PDT), ln1_bias=SDS((D,), PDT), wqkv=SDS((D, 3 * D), PDT),
                       bqkv=SDS((3 * D,), PDT), wo=SDS((D, D), PDT), bo=SDS((D,), PDT),
                       ln2_scale=SDS((D,), PDT), ln2_bias=SDS((D,), PDT), w1=SDS((D, FF), PDT), b1=SDS((FF,), PDT),
                       w2=SDS((FF, D), PDT), b2=SDS((D,), PDT))
    return dict(patch_embed=dict(kernel=SDS((PS, PS, 3, D), PDT), bias=SDS((D,), PDT)),
                cls_token=SDS((1, 1, D), PDT), pos_embed=SDS((1, T, D), PDT),
                layers=[lay() for _ in range(L)], lnf_scale=SDS((D,), PDT), lnf_bias=SDS((D,), PDT),
                head=dict(kernel=SDS((D, NC), PDT), bias=SDS((NC,), PDT)))


def forward(params, images, act):
    PS = C["PS"]
    x = jax.lax.conv_general_dilated(images.astype(ADT), params["patch_embed"]["kernel"].astype(ADT),
                                     (PS, PS), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    x = x + params["patch_embed"]["bias"].astype(ADT)
    b, gh, gw, d = x.shape
    x = x.reshape(b, gh * gw, d)
    cls = jnp.broadcast_to(params["cls_token"].astype(ADT), (b, 1, d))
    x = act(jnp.concatenate([cls, x], 1) + params["pos_embed"].astype(ADT))
    for p in params["layers"]:
        x = act(block(p, x))
    h = layer_norm(x[:, 0], params["lnf_scale"], params["lnf_bias"])
    return jnp.dot(h, params["head"]["kernel"].astype(ADT), preferred_element_type=f32) + params["head"]["bias"]


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))

    def rule(shape):   # FSDP: split every weight with 2+ dims on its first axis that divides; vectors replicated
        if len(shape) < 2:
            return P()
        for i, n in enumerate(shape):
            if n % len(devices) == 0 and n > 1:
                return P(*([None] * i), "data")
        return P()
    shard = lambda tree: jax.tree_util.tree_map(
        lambda l: SDS(l.shape, l.dtype, sharding=NamedSharding(mesh, rule(l.shape))), tree)
    pshapes = param_shapes()
    opt = optax.adamw(1e-3, weight_decay=0.05)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    bs = NamedSharding(mesh, P("data"))
    batch = {"images": SDS((C["B"], C["R"], C["R"], 3), jnp.float32, sharding=NamedSharding(mesh, P("data", None, None, None))),
             "labels": SDS((C["B"],), jnp.int32, sharding=bs)}
    act = lambda t: jax.lax.with_sharding_constraint(t, NamedSharding(mesh, P("data", None, None)))

    def loss_fn(params, batch):
        logits = forward(params, batch["images"], act)
        return optax.softmax_cross_entropy_with_integer_labels(logits, batch["labels"]).mean()

    def train_step(params, opt_state, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), sh(batch)),
                     out_shardings=(sh(params), sh(ostate), {"loss": NamedSharding(mesh, P())}),
                     donate_argnums=(0, 1))
    T = (C["R"] // C["PS"]) ** 2 + 1
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"], tokens_per_image=T,
                what=f"ViT training step ({C['L']} x d{C['D']}, {C['H']} heads, FF {C['FF']}) on {C['R']}x{C['R']} images, "
                     f"patch {C['PS']} ({T} tokens), global batch {C['B']}, FSDP over {len(devices)} chips, adamw, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch"], [params, ostate, batch], mesh))
    return jitted, (params, ostate, batch), meta


harness.main(build)
