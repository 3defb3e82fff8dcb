"""DP-SGD training step for a small MNIST-style CNN with per-example gradients, XLA:CPU.

The model: two 3x3 convs (jax.lax.conv_general_dilated, NHWC; widths C1 and C2, the second with stride 2,
ReLU), a 2x2 average pool, then a dense layer of width HID and a 10-way linear head. DP-SGD: per-example
gradients with jax.vmap(jax.grad(loss of one example)), each example's gradient clipped to global L2 norm
CLIP, summed, Gaussian noise (std SIGMA * CLIP) added, divided by the batch, then optax.adam. One jitted
train step.

Knobs (command line KEY=VALUE, defaults below):
  B      batch (examples)            IMG    image side (pixels, 1 channel)
  C1     first conv width            C2     second conv width          HID   dense width
  CLIP   per-example clip norm       SIGMA  noise multiplier           dtype f32 | bf16 (whole model)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=512, IMG=28, C1=16, C2=32, HID=512, CLIP=1.0, SIGMA=1.1, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, IMG, C1, C2, HID = (CFG[k] for k in ("B", "IMG", "C1", "C2", "HID"))
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["dtype"]]
NCLASS = 10
FEAT = (IMG // 4) ** 2 * C2


def conv(x, w, stride):
    return jax.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def init(key):
    ks = jax.random.split(key, 4)
    n = lambda k, s, fan: (jax.random.normal(k, s, jnp.float32) * np.sqrt(2.0 / fan)).astype(DT)
    return {"c1": {"w": n(ks[0], (3, 3, 1, C1), 9), "b": jnp.zeros((C1,), DT)},
            "c2": {"w": n(ks[1], (3, 3, C1, C2), 9 * C1), "b": jnp.zeros((C2,), DT)},
            "fc": {"w": n(ks[2], (FEAT, HID), FEAT), "b": jnp.zeros((HID,), DT)},
            "out": {"w": n(ks[3], (HID, NCLASS), HID), "b": jnp.zeros((NCLASS,), DT)}}


def logits_one(params, image):                   # one example: image [IMG, IMG, 1]
    x = image[None].astype(DT)
    x = jax.nn.relu(conv(x, params["c1"]["w"], 1) + params["c1"]["b"])
    x = jax.nn.relu(conv(x, params["c2"]["w"], 2) + params["c2"]["b"])
    x = jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0
    x = x.reshape(-1)
    x = jax.nn.relu(x @ params["fc"]["w"] + params["fc"]["b"])
    return (x @ params["out"]["w"] + params["out"]["b"]).astype(jnp.float32)


def loss_one(params, image, label):
    return optax.softmax_cross_entropy_with_integer_labels(logits_one(params, image), label)


opt = optax.adam(1e-3)


@jax.jit
def train_step(params, opt_state, images, labels, key):
    per_ex_loss = jax.vmap(loss_one, in_axes=(None, 0, 0))(params, images, labels)
    per_ex_grads = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, images, labels)
    leaves, treedef = jax.tree_util.tree_flatten(per_ex_grads)
    norms = jnp.sqrt(sum(jnp.sum(g.astype(jnp.float32).reshape(g.shape[0], -1) ** 2, axis=1) for g in leaves))
    scale = jnp.minimum(1.0, CFG["CLIP"] / (norms + 1e-6))
    keys = jax.random.split(key, len(leaves))
    noisy = [(jnp.tensordot(scale.astype(g.dtype), g, axes=1)
              + CFG["SIGMA"] * CFG["CLIP"] * jax.random.normal(k, g.shape[1:], g.dtype)) / g.shape[0]
             for g, k in zip(leaves, keys)]
    grads = jax.tree_util.tree_unflatten(treedef, noisy)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, per_ex_loss.mean()


params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
images = jax.random.uniform(jax.random.PRNGKey(1), (B, IMG, IMG, 1), jnp.float32)
labels = jax.random.randint(jax.random.PRNGKey(2), (B,), 0, NCLASS)
key = jax.random.PRNGKey(3)
if CFG["ma"]:
    ma = train_step.lower(params, opt_state, images, labels, key).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, images {images.nbytes / 2**30:.2f} GiB",
      flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = train_step(params, opt_state, images, labels, jax.random.fold_in(key, i))
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
