"""Small conv net (CIFAR-like) training step on one large full batch, XLA:CPU.

A 5-conv VGG-style net (3x3 convs via jax.lax.conv_general_dilated, NHWC, ReLU, 2x2 average pooling,
global average pool, dense head), softmax cross-entropy, optax.adam; one jitted train step
over the whole batch (steps=1: one step).

Knobs (command line KEY=VALUE, defaults below):
  B       global batch (images)                 IMG   image side (pixels)
  C       base channel width (C, 2C, 4C)        steps train steps to run
  micro   gradient accumulation: split the batch into `micro` microbatches, one optimizer update
          (micro=1: the whole batch at once)
  accum   how the microbatches are run: scan (lax.scan inside the step; NB XLA:CPU runs convolutions
          inside a while loop ~20x slower, B=512 micro=2 took 196 s against 9 s) | unroll (a Python loop
          inside the jitted step) | host (a jitted grad per microbatch, summed on the host, then a jitted update)
  remat   none | block (jax.checkpoint around each conv block)
  adt     activation dtype: f32 | bf16 (params stay f32)
  donate  1: donate params and opt_state to the step (donate_argnums=(0, 1)); 0: not
  ma      1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=4096, IMG=32, C=32, steps=1, micro=1, accum="unroll", remat="none", adt="f32", donate=0, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, IMG, C, MICRO = CFG["B"], CFG["IMG"], CFG["C"], CFG["micro"]
ADT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["adt"]]
NCLASS = 10


def conv(x, w):
    return jax.lax.conv_general_dilated(x, w.astype(x.dtype), (1, 1), "SAME",
                                        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def pool(x):
    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4.0


def init(key):
    ks = jax.random.split(key, 6)
    chans = [(3, C), (C, C), (C, 2 * C), (2 * C, 2 * C), (2 * C, 4 * C)]
    convs = [{"w": jax.random.normal(k, (3, 3, ci, co), jnp.float32) * np.sqrt(2.0 / (9 * ci)),
              "b": jnp.zeros((co,), jnp.float32)} for k, (ci, co) in zip(ks, chans)]
    head = {"w": jax.random.normal(ks[5], (4 * C, NCLASS), jnp.float32) * 0.01, "b": jnp.zeros((NCLASS,))}
    return {"convs": convs, "head": head}


def block(ps, x, do_pool):
    for p in ps:
        x = jax.nn.relu(conv(x, p["w"]) + p["b"].astype(x.dtype))
    return pool(x) if do_pool else x


if CFG["remat"] == "block":
    block = jax.checkpoint(block, static_argnums=(2,))


def loss_fn(params, images, labels):
    x = images.astype(ADT)
    cv = params["convs"]
    x = block(cv[0:2], x, True)       # IMG   -> IMG/2,  C
    x = block(cv[2:4], x, True)       # IMG/2 -> IMG/4, 2C
    x = block(cv[4:5], x, False)      # IMG/4, 4C
    feat = x.astype(jnp.float32).mean(axis=(1, 2))
    logits = feat @ params["head"]["w"] + params["head"]["b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


opt = optax.adam(1e-3)


def grads_of(params, imgs, labs):
    if CFG["accum"] == "scan":
        def acc(carry, xs):
            l, g = jax.value_and_grad(loss_fn)(params, *xs)
            return (carry[0] + l, jax.tree_util.tree_map(jnp.add, carry[1], g)), None
        zero = (jnp.zeros(()), jax.tree_util.tree_map(jnp.zeros_like, params))
        (loss, grads), _ = jax.lax.scan(acc, zero, (imgs, labs))
    else:                                        # unroll
        loss, grads = 0.0, jax.tree_util.tree_map(jnp.zeros_like, params)
        for i in range(imgs.shape[0]):
            l, g = jax.value_and_grad(loss_fn)(params, imgs[i], labs[i])
            loss, grads = loss + l, jax.tree_util.tree_map(jnp.add, grads, g)
    return loss / imgs.shape[0], jax.tree_util.tree_map(lambda g: g / imgs.shape[0], grads)


def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def train_step(params, opt_state, images, labels):
    if MICRO == 1:
        loss, grads = jax.value_and_grad(loss_fn)(params, images, labels)
    else:
        loss, grads = grads_of(params, images.reshape(MICRO, B // MICRO, *images.shape[1:]),
                               labels.reshape(MICRO, B // MICRO))
    params, opt_state = update(params, opt_state, grads)
    return params, opt_state, loss


step = jax.jit(train_step, donate_argnums=(0, 1) if CFG["donate"] else ())
if CFG["accum"] == "host" and MICRO > 1:
    _vg = jax.jit(jax.value_and_grad(loss_fn))
    _upd = jax.jit(update, donate_argnums=(0, 1) if CFG["donate"] else ())

    def step(params, opt_state, images, labels):
        m = B // MICRO
        loss, grads = 0.0, jax.tree_util.tree_map(jnp.zeros_like, params)
        for i in range(MICRO):
            l, g = _vg(params, images[i * m:(i + 1) * m], labels[i * m:(i + 1) * m])
            loss, grads = loss + l, jax.tree_util.tree_map(jnp.add, grads, g)
        params, opt_state = _upd(params, opt_state, jax.tree_util.tree_map(lambda g: g / MICRO, grads))
        return params, opt_state, loss / MICRO

key = jax.random.PRNGKey(0)
params = init(key)
opt_state = opt.init(params)
images = jax.random.normal(jax.random.PRNGKey(1), (B, IMG, IMG, 3), jnp.float32)
labels = jax.random.randint(jax.random.PRNGKey(2), (B,), 0, NCLASS)
if CFG["ma"]:
    if CFG["accum"] == "host" and MICRO > 1:     # the per-microbatch gradient program
        ma = _vg.lower(params, images[:B // MICRO], labels[:B // MICRO]).compile().memory_analysis()
    else:
        ma = step.lower(params, opt_state, images, labels).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, images {images.nbytes / 2**30:.2f} GiB",
      flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = step(params, opt_state, images, labels)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
