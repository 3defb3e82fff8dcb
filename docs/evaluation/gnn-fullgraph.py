"""Full-graph GNN training step (gated graph convolution, node classification) on a large random graph, XLA:CPU.

N nodes with FIN input features, E directed edges (src -> dst, random). L layers of
  hw   = h @ W                                  [N, F]
  gate = sigmoid(sum(h[src] * h[dst] * a, -1))  [E]     (edge attention from both endpoints)
  m    = hw[src] * gate                          [E, F]  (messages, one per edge)
  h    = relu(segment_sum(m, dst, N) / deg + h @ W_self + b)
then a linear head to NCLASS classes, softmax cross-entropy over the labelled nodes; optax.adam;
one jitted step over the whole graph (every edge at once).

Knobs (command line KEY=VALUE, defaults below):
  N, E    nodes, edges                            FIN, F  input / hidden feature width
  L       layers                                  steps   train steps to run
  remat   none | layer (jax.checkpoint around each layer)
  mdt     dtype of the per-edge tensors (gathered features, messages): f32 | bf16
  chunk   0: all edges at once; K > 0: each layer's edges in K equal chunks, lax.scan over the chunks
          of a jax.checkpoint-ed chunk body accumulating the [N, F] sum (only E/K edges live at once)
  donate  1: donate params and opt_state (donate_argnums=(0, 1)); 0: not
  ma      1: only compile the step and print compiled.memory_analysis() (nothing run)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(N=200_000, E=600_000, FIN=128, F=128, L=3, steps=1, remat="none", mdt="f32", chunk=0,
           donate=0, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
N, E, FIN, F, L, K = (CFG[k] for k in ("N", "E", "FIN", "F", "L", "chunk"))
MDT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["mdt"]]
NCLASS = 16


def init(key):
    ks = jax.random.split(key, 3 * L + 1)
    layers, fi = [], FIN
    for i in range(L):
        layers.append({"w": jax.random.normal(ks[3 * i], (fi, F)) / np.sqrt(fi),
                       "w_self": jax.random.normal(ks[3 * i + 1], (fi, F)) / np.sqrt(fi),
                       "a": jax.random.normal(ks[3 * i + 2], (fi,)) / np.sqrt(fi),
                       "b": jnp.zeros((F,))})
        fi = F
    return {"layers": layers, "head": jax.random.normal(ks[-1], (F, NCLASS)) / np.sqrt(F)}


def messages(h, hw, a, src, dst):
    hs, hd = h[src].astype(MDT), h[dst].astype(MDT)
    gate = jax.nn.sigmoid(jnp.sum(hs * hd * a.astype(MDT), -1, keepdims=True))
    return jax.ops.segment_sum(hw[src].astype(MDT) * gate, dst, num_segments=N).astype(jnp.float32)


def gconv(p, h, src, dst, inv_deg):
    hw = h @ p["w"]
    if K == 0:
        agg = messages(h, hw, p["a"], src, dst)
    else:
        body = jax.checkpoint(lambda acc, sd: (acc + messages(h, hw, p["a"], sd[0], sd[1]), None))
        agg, _ = jax.lax.scan(body, jnp.zeros((N, F)), (src.reshape(K, -1), dst.reshape(K, -1)))
    return jax.nn.relu(agg * inv_deg[:, None] + h @ p["w_self"] + p["b"])


if CFG["remat"] == "layer":
    gconv = jax.checkpoint(gconv)


def loss_fn(params, x, src, dst, inv_deg, labels, mask):
    h = x
    for p in params["layers"]:
        h = gconv(p, h, src, dst, inv_deg)
    logits = h @ params["head"]
    ce = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    return jnp.sum(ce * mask) / jnp.sum(mask)


opt = optax.adam(1e-2)


def train_step(params, opt_state, x, src, dst, inv_deg, labels, mask):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, src, dst, inv_deg, labels, mask)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


step = jax.jit(train_step, donate_argnums=(0, 1) if CFG["donate"] else ())

params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
rng = np.random.default_rng(0)
src = rng.integers(0, N, E).astype(np.int32)
dst = rng.integers(0, N, E).astype(np.int32)
deg = np.bincount(dst, minlength=N)
graph = dict(x=jnp.asarray(rng.standard_normal((N, FIN), np.float32)), src=jnp.asarray(src), dst=jnp.asarray(dst),
             inv_deg=jnp.asarray(1.0 / np.maximum(deg, 1), jnp.float32),
             labels=jnp.asarray(rng.integers(0, NCLASS, N), jnp.int32),
             mask=jnp.asarray(rng.random(N) < 0.3, jnp.float32))
args = [graph[k] for k in ("x", "src", "dst", "inv_deg", "labels", "mask")]
if CFG["ma"]:
    ma = step.lower(params, opt_state, *args).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"graph: {N} nodes, {E} edges; params {sum(x.size for x in jax.tree_util.tree_leaves(params))}", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = step(params, opt_state, *args)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
