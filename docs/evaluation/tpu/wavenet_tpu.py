"""WaveNet training step on raw audio (mu-law 256 classes; causal dilated convolutions, kernel 2, dilations
1..512 repeated in STACKS stacks; gated tanh x sigmoid units, 1x1 residual and skip convolutions; ReLU-1x1-ReLU-1x1
output head; softmax cross entropy on the next sample), compiled deviceless for XLA:TPU v5e:2x2. Data parallel:
audio clips split over a 1-D 'data' mesh of 4 chips, params and Adam state replicated. f32 params, activations
in ADT. optax.adam, params and opt state donated.

usage: python wavenet_tpu.py OUTDIR [KEY=VALUE ...]
keys: B global batch (clips), T samples per clip, RC residual channels, DC dilation (gate) channels, SC skip
      channels, STACKS, LPS layers per stack, adt (f32|bf16), topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", B=32, T=16384, RC=128, DC=256, SC=256, STACKS=2, LPS=10, adt="f32"))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32 = jnp.float32
ADT = {"f32": f32, "bf16": jnp.bfloat16}[C["adt"]]
SDS = jax.ShapeDtypeStruct
DN = ("NWC", "WIO", "NWC")


def causal_conv(x, w, b, dil):
    k = w.shape[0]
    x = jnp.pad(x, ((0, 0), ((k - 1) * dil, 0), (0, 0)))
    y = jax.lax.conv_general_dilated(x, w.astype(ADT), (1,), "VALID", rhs_dilation=(dil,), dimension_numbers=DN)
    return y + b.astype(ADT)


def conv1x1(x, w, b):
    return jnp.einsum("btc,cd->btd", x, w.astype(ADT)) + b.astype(ADT)


def loss_fn(params, audio):
    inp, tgt = audio[:, :-1], audio[:, 1:]
    x = params["embed"].astype(ADT)[inp]                           # [B, T, RC]
    x = causal_conv(x, params["causal"]["w"], params["causal"]["b"], 1)
    skip = 0.0
    for i, p in enumerate(params["layers"]):
        dil = 2 ** (i % C["LPS"])
        h = causal_conv(x, p["dil_w"], p["dil_b"], dil)           # [B, T, DC]
        a, g = jnp.split(h, 2, axis=-1)
        z = jnp.tanh(a) * jax.nn.sigmoid(g)                        # [B, T, DC/2]
        skip = skip + conv1x1(z, p["skip_w"], p["skip_b"])
        x = x + conv1x1(z, p["res_w"], p["res_b"])
    h = jax.nn.relu(conv1x1(jax.nn.relu(skip), params["out1"]["w"], params["out1"]["b"]))
    logits = conv1x1(h, params["out2"]["w"], params["out2"]["b"]).astype(f32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, tgt).mean()


def param_shapes():
    RC, DC, SC = C["RC"], C["DC"], C["SC"]
    lay = lambda: dict(dil_w=SDS((2, RC, DC), f32), dil_b=SDS((DC,), f32), res_w=SDS((DC // 2, RC), f32),
                       res_b=SDS((RC,), f32), skip_w=SDS((DC // 2, SC), f32), skip_b=SDS((SC,), f32))
    return dict(embed=SDS((256, RC), f32), causal=dict(w=SDS((2, RC, RC), f32), b=SDS((RC,), f32)),
                layers=[lay() for _ in range(C["STACKS"] * C["LPS"])],
                out1=dict(w=SDS((SC, SC), f32), b=SDS((SC,), f32)), out2=dict(w=SDS((SC, 256), f32), b=SDS((256,), f32)))


def build(devices):
    mesh = Mesh(np.array(devices), ("data",))
    rep = NamedSharding(mesh, P())
    pshapes = param_shapes()
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))
    shard = lambda tree: jax.tree_util.tree_map(lambda l: SDS(l.shape, l.dtype, sharding=rep), tree)
    params = shard(pshapes)
    ostate = shard(jax.eval_shape(opt.init, pshapes))
    audio = SDS((C["B"], C["T"] + 1), jnp.int32, sharding=NamedSharding(mesh, P("data", None)))

    def train_step(params, opt_state, audio):
        loss, grads = jax.value_and_grad(loss_fn)(params, audio)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(params), sh(ostate), audio.sharding),
                     out_shardings=(sh(params), sh(ostate), {"loss": rep}), donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(params), param_bytes=harness.nbytes(params),
                opt_state_bytes=harness.nbytes(ostate), donated=["params", "opt_state"],
                what=f"WaveNet training step ({C['STACKS']} x {C['LPS']} dilated layers, residual {C['RC']}, gate {C['DC']}, "
                     f"skip {C['SC']}), {C['B']} clips x {C['T']} samples, data parallel over {len(devices)} chips, "
                     f"{C['adt']} activations, adam, donated",
                arguments=harness.describe_args(["params", "opt_state", "audio"], [params, ostate, audio], mesh))
    return jitted, (params, ostate, audio), meta


harness.main(build)
