"""CLIP-style contrastive training step (two towers, in-batch negatives) on one large batch, XLA:CPU.

Image tower: precomputed image features [B, FI] -> MLP (GELU) -> [B, E]. Text tower: token ids [B, T]
-> embedding table [VOCAB, E] -> mean over tokens -> MLP -> [B, E]. Both L2-normalised;
logits = exp(logit_scale) * img @ txt.T, a [B, B] similarity matrix; loss = symmetric softmax
cross-entropy (image->text over rows, text->image over columns), the diagonal is the positive.
optax.adamw; one jitted train step over the whole batch.

Knobs (command line KEY=VALUE, defaults below):
  B       global batch (image/text pairs)        E     embedding width
  FI      image feature width                     HID   MLP hidden width
  T       tokens per caption                      VOCAB text vocabulary
  steps   train steps to run
  chunk   0: the whole [B, B] similarity matrix at once; N > 0: the two log-sum-exps computed N rows
          (columns) at a time with lax.map over a jax.checkpoint-ed chunk (only [N, B] live at once)
  sdt     dtype of the similarity matmul and its softmax input: f32 | bf16
  remat   none | towers (jax.checkpoint around each tower)
  donate  1: donate params and opt_state (donate_argnums=(0, 1)); 0: not
  ma      1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=16384, E=512, FI=768, HID=2048, T=16, VOCAB=32000, steps=1, chunk=0, sdt="f32",
           remat="none", donate=0, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, E, FI, HID, T, VOCAB, CHUNK = (CFG[k] for k in ("B", "E", "FI", "HID", "T", "VOCAB", "chunk"))
SDT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["sdt"]]


def dense(key, i, o):
    return {"w": jax.random.normal(key, (i, o), jnp.float32) / np.sqrt(i), "b": jnp.zeros((o,), jnp.float32)}


def init(key):
    k = jax.random.split(key, 5)
    return {"img": {"fc1": dense(k[0], FI, HID), "fc2": dense(k[1], HID, E)},
            "txt": {"embed": jax.random.normal(k[2], (VOCAB, E), jnp.float32) * 0.02,
                    "fc1": dense(k[3], E, HID), "fc2": dense(k[4], HID, E)},
            "logit_scale": jnp.array(np.log(1 / 0.07), jnp.float32)}


def mlp(p, x):
    h = jax.nn.gelu(x @ p["fc1"]["w"] + p["fc1"]["b"])
    return h @ p["fc2"]["w"] + p["fc2"]["b"]


def image_tower(p, feats):
    return mlp(p, feats)


def text_tower(p, tokens):
    x = jnp.take(p["embed"], tokens, axis=0).mean(axis=1)       # [B, T, E] -> [B, E]
    return mlp(p, x)


if CFG["remat"] == "towers":
    image_tower, text_tower = jax.checkpoint(image_tower), jax.checkpoint(text_tower)


def l2n(x):
    return x * jax.lax.rsqrt(jnp.sum(x * x, -1, keepdims=True) + 1e-6)


def lse_chunked(a, b, scale):
    """logsumexp over j of scale * a_i . b_j for every row i, CHUNK rows at a time."""
    @jax.checkpoint
    def one(ac):
        return jax.nn.logsumexp((scale * (ac.astype(SDT) @ b.astype(SDT).T)).astype(jnp.float32), axis=1)
    return jax.lax.map(one, a.reshape(-1, CHUNK, a.shape[1])).reshape(-1)


def loss_fn(params, feats, tokens):
    zi = l2n(image_tower(params["img"], feats))
    zt = l2n(text_tower(params["txt"], tokens))
    scale = jnp.exp(params["logit_scale"])
    pos = scale * jnp.sum(zi * zt, -1)                                        # diagonal logits [B]
    if CHUNK == 0:
        logits = (scale * (zi.astype(SDT) @ zt.astype(SDT).T)).astype(jnp.float32)   # [B, B]
        lse_i2t = jax.nn.logsumexp(logits, axis=1)
        lse_t2i = jax.nn.logsumexp(logits, axis=0)
    else:
        lse_i2t = lse_chunked(zi, zt, scale)
        lse_t2i = lse_chunked(zt, zi, scale)
    return 0.5 * (jnp.mean(lse_i2t - pos) + jnp.mean(lse_t2i - pos))


opt = optax.adamw(1e-4, weight_decay=0.1)


def train_step(params, opt_state, feats, tokens):
    loss, grads = jax.value_and_grad(loss_fn)(params, feats, tokens)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


step = jax.jit(train_step, donate_argnums=(0, 1) if CFG["donate"] else ())

params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
feats = jax.random.normal(jax.random.PRNGKey(1), (B, FI), jnp.float32)
tokens = jax.random.randint(jax.random.PRNGKey(2), (B, T), 0, VOCAB)
if CFG["ma"]:
    ma = step.lower(params, opt_state, feats, tokens).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = step(params, opt_state, feats, tokens)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
