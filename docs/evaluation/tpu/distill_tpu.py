"""Knowledge distillation of a GPT language model: a frozen teacher (LT layers, width DT, bf16 weights, forward
only under stop_gradient) and a small student (LS layers, width DS, f32 weights + AdamW) trained on
T^2 * KL(softmax(teacher/T) || softmax(student/T)) + alpha * next-token cross entropy over the full vocabulary.
Both models' layers are stacked and run with lax.scan. Compiled deviceless for XLA:TPU v5e:2x2. FSDP over a
1-D 'data' mesh of 4 chips (teacher and student weights split on their first non-layer axis), batch split over
'data'. Student params and opt state donated; the teacher's weights are an argument kept across steps.

usage: python distill_tpu.py OUTDIR [KEY=VALUE ...]
keys: LT DT HT teacher layers/width/heads, LS DS HS student, V vocab, S sequence, B global batch, TEMP, ALPHA, topo
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
C = harness.config(dict(topo="v5e:2x2", LT=24, DT=1024, HT=16, LS=6, DS=512, HS=8, V=50304, S=1024, B=32,
                        TEMP=2.0, ALPHA=0.5))
import numpy as np
import jax, jax.numpy as jnp, optax
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

f32, bf16 = jnp.float32, jnp.bfloat16
SDS = jax.ShapeDtypeStruct
ACT = None


def ln(x, p):
    xf = x.astype(f32)
    m = xf.mean(-1, keepdims=True)
    v = ((xf - m) ** 2).mean(-1, keepdims=True)
    return ((xf - m) * jax.lax.rsqrt(v + 1e-5) * p["s"] + p["b"]).astype(bf16)


def block(p, x, H):
    b, t, d = x.shape
    dh = d // H
    h = ln(x, p["ln1"])
    qkv = (h @ p["wqkv"].astype(bf16)).reshape(b, t, 3, H, dh)
    q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(f32) / np.sqrt(dh)
    s = jnp.where(jnp.tril(jnp.ones((t, t), bool)), s, -1e9)
    pr = jax.nn.softmax(s, axis=-1).astype(bf16)
    o = jnp.einsum("bhqk,bkhd->bqhd", pr, v).reshape(b, t, d)
    x = x + o @ p["wo"].astype(bf16)
    h = ln(x, p["ln2"])
    return ACT(x + jax.nn.gelu(h @ p["w1"].astype(bf16)) @ p["w2"].astype(bf16))


def gpt_logits(p, tok, H):
    x = ACT(p["wte"].astype(bf16)[tok] + p["wpe"].astype(bf16)[None, : tok.shape[1]])
    x, _ = jax.lax.scan(lambda h, lp: (block(lp, h, H), None), x, p["layers"])
    x = ln(x, p["lnf"])
    return jnp.einsum("btd,vd->btv", x, p["wte"].astype(bf16), preferred_element_type=f32)


def loss_fn(student, teacher, tokens):
    inp, tgt = tokens[:, :-1], tokens[:, 1:]
    T = C["TEMP"]
    t_logits = jax.lax.stop_gradient(gpt_logits(teacher, inp, C["HT"]))
    s_logits = gpt_logits(student, inp, C["HS"])
    t_logp = jax.nn.log_softmax(t_logits / T, -1)
    s_logp = jax.nn.log_softmax(s_logits / T, -1)
    kl = (jnp.exp(t_logp) * (t_logp - s_logp)).sum(-1).mean() * T * T
    ce = optax.softmax_cross_entropy_with_integer_labels(s_logits, tgt).mean()
    return C["ALPHA"] * ce + (1 - C["ALPHA"]) * kl


def gpt_shapes(L, D, dt):
    lnp = lambda: dict(s=SDS((D,), dt), b=SDS((D,), dt))
    lay = dict(ln1=lnp(), wqkv=SDS((D, 3 * D), dt), wo=SDS((D, D), dt), ln2=lnp(),
               w1=SDS((D, 4 * D), dt), w2=SDS((4 * D, D), dt))
    return dict(wte=SDS((C["V"], D), dt), wpe=SDS((C["S"], D), dt),
                layers=jax.tree_util.tree_map(lambda l: SDS((L,) + l.shape, l.dtype), lay), lnf=lnp())


def build(devices):
    global ACT
    mesh = Mesh(np.array(devices), ("data",))

    def rule(shape, stacked):
        if len(shape) < 2 + stacked:
            return P()
        for i, n in enumerate(shape):
            if i >= stacked and n % len(devices) == 0 and n > 1:
                return P(*([None] * i), "data")
        return P()
    shard = lambda tree: jax.tree_util.tree_map_with_path(
        lambda path, l: SDS(l.shape, l.dtype, sharding=NamedSharding(
            mesh, rule(l.shape, int(any(getattr(k, "key", None) == "layers" for k in path))))), tree)
    sshapes = gpt_shapes(C["LS"], C["DS"], f32)
    opt = optax.adamw(6e-4, weight_decay=0.1)
    student = shard(sshapes)
    ostate = shard(jax.eval_shape(opt.init, sshapes))
    teacher = shard(gpt_shapes(C["LT"], C["DT"], bf16))
    tokens = SDS((C["B"], C["S"] + 1), jnp.int32, sharding=NamedSharding(mesh, P("data", None)))
    ACT = lambda t: jax.lax.with_sharding_constraint(t, NamedSharding(mesh, P("data", None, None)))

    def train_step(student, opt_state, teacher, tokens):
        loss, grads = jax.value_and_grad(loss_fn)(student, teacher, tokens)
        updates, opt_state = opt.update(grads, opt_state, student)
        return optax.apply_updates(student, updates), opt_state, {"loss": loss}

    sh = lambda t: jax.tree_util.tree_map(lambda l: l.sharding, t)
    jitted = jax.jit(train_step, in_shardings=(sh(student), sh(ostate), sh(teacher), tokens.sharding),
                     out_shardings=(sh(student), sh(ostate), {"loss": NamedSharding(mesh, P())}),
                     donate_argnums=(0, 1))
    meta = dict(mesh=dict(mesh.shape), n_params=harness.nparams(student), param_bytes=harness.nbytes(student),
                teacher_params=harness.nparams(teacher), teacher_bytes=harness.nbytes(teacher),
                opt_state_bytes=harness.nbytes(ostate), donated=["student", "opt_state"],
                what=f"distillation step: teacher GPT {C['LT']} x d{C['DT']} (bf16, frozen) -> student {C['LS']} x d{C['DS']}, "
                     f"vocab {C['V']}, seq {C['S']}, global batch {C['B']}, FSDP over {len(devices)} chips, adamw",
                arguments=harness.describe_args(["student", "opt_state", "teacher", "tokens"],
                                                [student, ostate, teacher, tokens], mesh))
    return jitted, (student, ostate, teacher, tokens), meta


harness.main(build)
