"""Latent-diffusion U-Net training step (epsilon prediction, MSE loss), compiled deviceless for XLA:TPU.
U-Net: conv_in, per level NRES residual blocks (GroupNorm 32, SiLU, 3x3 conv, time embedding added) with a
self-attention block after each res block at the levels in ATTN, stride-2 conv downsampling; a middle block
(res, attention, res); the up path mirrors it with skip connections concatenated; conv_out.
FSDP: a 1-D 'data' mesh, every weight with 2+ dims split over 'data' on its first axis that divides (params and
Adam state alike), the batch split over 'data'. optax.adamw, params and opt state donated.

usage: python unet_tpu.py OUTDIR [KEY=VALUE ...]
keys: R latent side (64 for 512x512 images with an 8x VAE), CIN latent channels, CH base channels,
      MULT channel multipliers per level (comma list), NRES res blocks per level, ATTN levels with self-attention
      (comma list), HEADS attention heads, B global batch, pdtype (f32|bf16), adt (bf16|f32), topo
"""
import harness
C = harness.config(dict(topo="v5e:2x2", R=64, CIN=4, CH=320, MULT="1,2,4,4", NRES=2, ATTN="0,1,2", HEADS=8,
                        B=64, pdtype="f32", adt="bf16"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}
PDT, ADT = DT[C["pdtype"]], DT[C["adt"]]
SDS = jax.ShapeDtypeStruct
MULT = [int(m) for m in C["MULT"].split(",")]
ATTN = {int(a) for a in C["ATTN"].split(",") if a != ""}
TE = C["CH"] * 4                                  # time-embedding width


# ---------------------------------------------------------------- parameter shapes
def conv_p(cin, cout, k=3):
    return dict(kernel=SDS((k, k, cin, cout), PDT), bias=SDS((cout,), PDT))


def gn_p(c):
    return dict(scale=SDS((c,), PDT), bias=SDS((c,), PDT))


def res_p(cin, cout):
    p = dict(norm1=gn_p(cin), conv1=conv_p(cin, cout), temb=dict(kernel=SDS((TE, cout), PDT), bias=SDS((cout,), PDT)),
             norm2=gn_p(cout), conv2=conv_p(cout, cout))
    if cin != cout:
        p["skip"] = conv_p(cin, cout, 1)
    return p


def attn_p(c):
    return dict(norm=gn_p(c), wqkv=SDS((c, 3 * c), PDT), wo=SDS((c, c), PDT), bo=SDS((c,), PDT))


def param_shapes():
    ch = C["CH"]
    p = dict(time_mlp=dict(w1=SDS((ch, TE), PDT), b1=SDS((TE,), PDT), w2=SDS((TE, TE), PDT), b2=SDS((TE,), PDT)),
             conv_in=conv_p(C["CIN"], ch), down=[], up=[])
    chans, c = [ch], ch
    for lvl, m in enumerate(MULT):
        blocks = []
        for _ in range(C["NRES"]):
            b = dict(res=res_p(c, ch * m))
            c = ch * m
            if lvl in ATTN:
                b["attn"] = attn_p(c)
            blocks.append(b)
            chans.append(c)
        lv = dict(blocks=blocks)
        if lvl != len(MULT) - 1:
            lv["downsample"] = conv_p(c, c)
            chans.append(c)
        p["down"].append(lv)
    p["mid"] = dict(res1=res_p(c, c), attn=attn_p(c), res2=res_p(c, c))
    for lvl, m in reversed(list(enumerate(MULT))):
        blocks = []
        for _ in range(C["NRES"] + 1):
            b = dict(res=res_p(c + chans.pop(), ch * m))
            c = ch * m
            if lvl in ATTN:
                b["attn"] = attn_p(c)
            blocks.append(b)
        lv = dict(blocks=blocks)
        if lvl != 0:
            lv["upsample"] = conv_p(c, c)
        p["up"].append(lv)
    p["norm_out"] = gn_p(c)
    p["conv_out"] = conv_p(c, C["CIN"])
    return p


# ---------------------------------------------------------------- model
def conv(p, x, stride=1):
    k = p["kernel"].shape[0]
    y = jax.lax.conv_general_dilated(x, p["kernel"].astype(ADT), (stride, stride), "SAME" if k > 1 else "VALID",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return y + p["bias"].astype(ADT)


def group_norm(p, x, groups=32):
    b, h, w, c = x.shape
    xf = x.astype(f32).reshape(b, h, w, groups, c // groups)
    m = xf.mean((1, 2, 4), keepdims=True)
    v = ((xf - m) ** 2).mean((1, 2, 4), keepdims=True)
    y = ((xf - m) * jax.lax.rsqrt(v + 1e-5)).reshape(b, h, w, c) * p["scale"] + p["bias"]
    return y.astype(ADT)


def res_block(p, x, temb):
    h = conv(p["conv1"], jax.nn.silu(group_norm(p["norm1"], x)))
    h = h + (temb @ p["temb"]["kernel"].astype(ADT) + p["temb"]["bias"].astype(ADT))[:, None, None, :]
    h = conv(p["conv2"], jax.nn.silu(group_norm(p["norm2"], h)))
    return (conv(p["skip"], x) if "skip" in p else x) + h


def attn_block(p, x):
    b, hh, ww, c = x.shape
    H = C["HEADS"]
    dh = c // H
    h = group_norm(p["norm"], x).reshape(b, hh * ww, c)
    q, k, v = jnp.split((h @ p["wqkv"].astype(ADT)).reshape(b, hh * ww, 3, H, dh), 3, axis=2)
    q, k, v = q[:, :, 0], k[:, :, 0], v[:, :, 0]
    sc = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(f32) / np.sqrt(dh)
    pr = jax.nn.softmax(sc, -1).astype(ADT)
    o = jnp.einsum("bhqk,bkhd->bqhd", pr, v).reshape(b, hh * ww, c)
    return x + (o @ p["wo"].astype(ADT) + p["bo"].astype(ADT)).reshape(b, hh, ww, c)


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = jnp.exp(-np.log(10000.0) * jnp.arange(half, dtype=f32) / half)
    a = t.astype(f32)[:, None] * freqs[None]
    return jnp.concatenate([jnp.cos(a), jnp.sin(a)], -1)


def unet(params, x, t, act):
    tm = params["time_mlp"]
    temb = timestep_embedding(t, C["CH"])
    temb = jax.nn.silu(temb @ tm["w1"] + tm["b1"]) @ tm["w2"] + tm["b2"]
    temb = jax.nn.silu(temb).astype(ADT)
    h = act(conv(params["conv_in"], x.astype(ADT)))
    skips = [h]
    for lv in params["down"]:
        for b in lv["blocks"]:
            h = act(res_block(b["res"], h, temb))
            if "attn" in b:
                h = act(attn_block(b["attn"], h))
            skips.append(h)
        if "downsample" in lv:
            h = act(conv(lv["downsample"], h, 2))
            skips.append(h)
    h = act(res_block(params["mid"]["res1"], h, temb))
    h = act(attn_block(params["mid"]["attn"], h))
    h = act(res_block(params["mid"]["res2"], h, temb))
    for lv in params["up"]:
        for b in lv["blocks"]:
            h = act(res_block(b["res"], jnp.concatenate([h, skips.pop()], -1), temb))
            if "attn" in b:
                h = act(attn_block(b["attn"], h))
        if "upsample" in lv:
            bb, hh, ww, cc = h.shape
            h = jax.image.resize(h, (bb, hh * 2, ww * 2, cc), "nearest")
            h = act(conv(lv["upsample"], h))
    h = jax.nn.silu(group_norm(params["norm_out"], h))
    return conv(params["conv_out"], h).astype(f32)


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    n = len(devices)

    def rule(shape):
        if len(shape) < 2:
            return P()
        for i, d in enumerate(shape):
            if d % n == 0:
                return P(*([None] * i), "data")
        return P()
    shard = lambda tree: jax.tree_util.tree_map(
        lambda l: SDS(l.shape, l.dtype, sharding=NamedSharding(mesh, rule(l.shape))), tree)
    pshapes = param_shapes()
    opt = optax.adamw(1e-4, weight_decay=0.01)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    img = NamedSharding(mesh, P("data", None, None, None))
    B, R = C["B"], C["R"]
    batch = {"latents": SDS((B, R, R, C["CIN"]), f32, sharding=img), "noise": SDS((B, R, R, C["CIN"]), f32, sharding=img),
             "t": SDS((B,), jnp.int32, sharding=NamedSharding(mesh, P("data")))}
    act = lambda x: jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P("data", None, None, None)))
    betas = np.linspace(1e-4, 0.02, 1000)
    abar = jnp.asarray(np.cumprod(1 - betas), f32)

    def loss_fn(params, batch):
        a = abar[batch["t"]][:, None, None, None]
        xt = jnp.sqrt(a) * batch["latents"] + jnp.sqrt(1 - a) * batch["noise"]
        eps = unet(params, xt, batch["t"], act)
        return jnp.mean((eps - batch["noise"]) ** 2)

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
                what=f"latent-diffusion U-Net training step (base {C['CH']} channels, mults {C['MULT']}, {C['NRES']} res "
                     f"blocks per level, self-attention at levels {C['ATTN']}) on {R}x{R}x{C['CIN']} latents, global "
                     f"batch {B}, FSDP over {n} chips, adamw, donated",
                arguments=harness.describe_args(["params", "opt_state", "batch"], [params, ostate, batch], mesh))
    return jitted, (params, ostate, batch), meta


harness.main(build)
