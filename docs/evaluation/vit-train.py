"""Vision Transformer (ViT) classifier training step on one large batch of images, XLA:CPU.

Images [B,IMG,IMG,3] are cut into PxP patches, linearly embedded to width D, a learned [CLS] token and
position embeddings are added, then DEPTH pre-LayerNorm transformer encoder blocks (multi-head
self-attention with H heads, GELU MLP of width 4D), a final LayerNorm, and a linear head on the [CLS]
token. Softmax cross-entropy, optax.adamw; one jitted train step (jax.value_and_grad).

Knobs (command line KEY=VALUE, defaults below):
  B      batch (images)              IMG    image side (pixels)       P      patch side (pixels)
  D      model width                 H      attention heads           DEPTH  encoder blocks
  MLP    MLP width                   NCLASS classes                   dtype  f32 | bf16 (whole model)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=64, IMG=128, P=8, D=256, H=8, DEPTH=4, MLP=1024, NCLASS=100, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, IMG, P, D, H, DEPTH, MLP, NCLASS = (CFG[k] for k in ("B", "IMG", "P", "D", "H", "DEPTH", "MLP", "NCLASS"))
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["dtype"]]
NP = (IMG // P) ** 2          # patches per image
T = NP + 1                    # tokens incl. [CLS]


def dense_init(k, i, o):
    return {"w": (jax.random.normal(k, (i, o), jnp.float32) * np.sqrt(1.0 / i)).astype(DT),
            "b": jnp.zeros((o,), DT)}


def init(key):
    ks = jax.random.split(key, 4 + DEPTH)
    blocks = []
    for i in range(DEPTH):
        kk = jax.random.split(ks[4 + i], 4)
        blocks.append({"ln1": {"g": jnp.ones((D,), DT), "b": jnp.zeros((D,), DT)},
                       "qkv": dense_init(kk[0], D, 3 * D), "proj": dense_init(kk[1], D, D),
                       "ln2": {"g": jnp.ones((D,), DT), "b": jnp.zeros((D,), DT)},
                       "fc1": dense_init(kk[2], D, MLP), "fc2": dense_init(kk[3], MLP, D)})
    return {"patch": dense_init(ks[0], P * P * 3, D),
            "cls": jnp.zeros((1, 1, D), DT),
            "pos": (jax.random.normal(ks[1], (1, T, D), jnp.float32) * 0.02).astype(DT),
            "blocks": blocks,
            "ln_f": {"g": jnp.ones((D,), DT), "b": jnp.zeros((D,), DT)},
            "head": dense_init(ks[2], D, NCLASS)}


def layernorm(p, x):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-6) * p["g"] + p["b"]


def dense(p, x):
    return x @ p["w"] + p["b"]


def attention(p, x):
    b, t, _ = x.shape
    qkv = dense(p["qkv"], x).reshape(b, t, 3, H, D // H)
    q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(D // H)
    a = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(b, t, D)
    return dense(p["proj"], o)


def encoder_block(p, x):
    x = x + attention(p, layernorm(p["ln1"], x))
    x = x + dense(p["fc2"], jax.nn.gelu(dense(p["fc1"], layernorm(p["ln2"], x))))
    return x


def patchify(images):
    b = images.shape[0]
    x = images.reshape(b, IMG // P, P, IMG // P, P, 3).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(b, NP, P * P * 3)


def loss_fn(params, images, labels):
    x = dense(params["patch"], patchify(images.astype(DT)))
    cls = jnp.broadcast_to(params["cls"], (x.shape[0], 1, D))
    x = jnp.concatenate([cls, x], axis=1) + params["pos"]
    for p in params["blocks"]:
        x = encoder_block(p, x)
    x = layernorm(params["ln_f"], x[:, 0])
    logits = dense(params["head"], x).astype(jnp.float32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


opt = optax.adamw(3e-4, weight_decay=0.05)


@jax.jit
def train_step(params, opt_state, images, labels):
    loss, grads = jax.value_and_grad(loss_fn)(params, images, labels)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
images = jax.random.normal(jax.random.PRNGKey(1), (B, IMG, IMG, 3), jnp.float32)
labels = jax.random.randint(jax.random.PRNGKey(2), (B,), 0, NCLASS)
if CFG["ma"]:
    ma = train_step.lower(params, opt_state, images, labels).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, tokens {T}, "
      f"images {images.nbytes / 2**30:.2f} GiB", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = train_step(params, opt_state, images, labels)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
