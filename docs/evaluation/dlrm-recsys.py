"""DLRM-style click-through-rate recommender, one training step on a large batch, XLA:CPU.

Each example has NDENSE dense features and NSPARSE categorical features. The dense features go through a
bottom MLP (512, 256, EMB); each categorical id is looked up in its own embedding table [ROWS, EMB]
(a gather). The EMB-wide bottom output and the NSPARSE embeddings interact by all pairwise dot products
([B, F, F], strictly lower triangle kept), which together with the bottom output feed a top MLP
(1024, 1024, 512, 256, 1). Binary cross-entropy on the click label, optax.adam on everything (tables
included); one jitted train step (jax.value_and_grad).

Knobs (command line KEY=VALUE, defaults below):
  B      batch (examples)            NDENSE dense features         NSPARSE categorical features (tables)
  ROWS   rows per embedding table    EMB    embedding width        dtype   f32 | bf16 (whole model)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=65536, NDENSE=13, NSPARSE=26, ROWS=100000, EMB=64, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, NDENSE, NSPARSE, ROWS, EMB = (CFG[k] for k in ("B", "NDENSE", "NSPARSE", "ROWS", "EMB"))
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["dtype"]]
F = NSPARSE + 1
NPAIRS = F * (F - 1) // 2
BOTTOM = [NDENSE, 512, 256, EMB]
TOP = [EMB + NPAIRS, 1024, 1024, 512, 256, 1]


def mlp_init(key, sizes):
    ks = jax.random.split(key, len(sizes) - 1)
    return [{"w": (jax.random.normal(k, (i, o), jnp.float32) * np.sqrt(2.0 / (i + o))).astype(DT),
             "b": jnp.zeros((o,), DT)} for k, i, o in zip(ks, sizes[:-1], sizes[1:])]


def init(key):
    kb, kt, ke = jax.random.split(key, 3)
    tables = [(jax.random.uniform(k, (ROWS, EMB), jnp.float32, -1.0, 1.0) / np.sqrt(ROWS)).astype(DT)
              for k in jax.random.split(ke, NSPARSE)]
    return {"bottom": mlp_init(kb, BOTTOM), "top": mlp_init(kt, TOP), "tables": tables}


def mlp(layers, x, last_act):
    for i, p in enumerate(layers):
        x = x @ p["w"] + p["b"]
        if i < len(layers) - 1 or last_act:
            x = jax.nn.relu(x)
    return x


TRI = np.tril_indices(F, -1)


def loss_fn(params, dense, sparse, clicks):
    d = mlp(params["bottom"], dense.astype(DT), True)                                    # [B, EMB]
    embs = [t[sparse[:, j]] for j, t in enumerate(params["tables"])]                     # NSPARSE x [B, EMB]
    feats = jnp.stack([d] + embs, axis=1)                                                # [B, F, EMB]
    inter = jnp.einsum("bie,bje->bij", feats, feats)[:, TRI[0], TRI[1]]                  # [B, NPAIRS]
    logit = mlp(params["top"], jnp.concatenate([d, inter], axis=1), False)[:, 0]
    return optax.sigmoid_binary_cross_entropy(logit.astype(jnp.float32), clicks).mean()


opt = optax.adam(1e-3)


@jax.jit
def train_step(params, opt_state, dense, sparse, clicks):
    loss, grads = jax.value_and_grad(loss_fn)(params, dense, sparse, clicks)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
kd, ks, kc = jax.random.split(jax.random.PRNGKey(1), 3)
dense = jnp.log1p(jnp.abs(jax.random.normal(kd, (B, NDENSE), jnp.float32)) * 10.0)
zipf = jnp.floor(ROWS * jax.random.uniform(ks, (B, NSPARSE)) ** 3).astype(jnp.int32)   # skewed ids
clicks = (jax.random.uniform(kc, (B,)) < 0.25).astype(jnp.float32)
if CFG["ma"]:
    ma = train_step.lower(params, opt_state, dense, zipf, clicks).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, "
      f"tables {sum(t.nbytes for t in params['tables']) / 2**30:.2f} GiB", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = train_step(params, opt_state, dense, zipf, clicks)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
