"""Mamba-style selective state-space language model, one training step, XLA:CPU.

Byte-level tokens [B,L] -> embedding (width D) -> LAYERS residual blocks, each: RMSNorm, input projection to
2E (x and gate z), a causal depthwise conv of width 4 on x, SiLU, input-dependent step size delta (softplus),
input-dependent B_t and C_t of state size N, a diagonal A (A = -exp(A_log), [E,N]). The recurrence
h_t = exp(delta_t A) * h_{t-1} + delta_t B_t x_t over the [B,L,E,N] state is computed in parallel with
jax.lax.associative_scan along the sequence; y_t = <h_t, C_t> + Dskip * x_t, gated by SiLU(z), then an
output projection. Final RMSNorm, tied LM head, next-byte cross-entropy, optax.adamw; one jitted train step.

Knobs (command line KEY=VALUE, defaults below):
  B      batch (sequences)           L      sequence length           D     model width
  E      inner (expanded) width      N      SSM state size            LAYERS blocks
  VOCAB  vocabulary                  dtype  f32 | bf16 (whole model)
  steps  train steps to run
  ma     1: only compile the step and print compiled.memory_analysis() (nothing run, nothing allocated)
"""
import sys, time
import numpy as np
import jax, jax.numpy as jnp, optax

CFG = dict(B=4, L=1024, D=256, E=512, N=16, LAYERS=2, VOCAB=256, dtype="f32", steps=1, ma=0)
for a in sys.argv[1:]:
    k, v = a.split("=", 1)
    CFG[k] = type(CFG[k])(v)
print("config:", CFG, flush=True)
B, L, D, E, N, LAYERS, VOCAB = (CFG[k] for k in ("B", "L", "D", "E", "N", "LAYERS", "VOCAB"))
DT = {"f32": jnp.float32, "bf16": jnp.bfloat16}[CFG["dtype"]]
KCONV = 4


def init(key):
    ks = jax.random.split(key, 1 + LAYERS)
    w = lambda k, s, fan: (jax.random.normal(k, s, jnp.float32) / np.sqrt(fan)).astype(DT)
    layers = []
    for i in range(LAYERS):
        kk = jax.random.split(ks[1 + i], 6)
        layers.append({"norm": jnp.ones((D,), DT),
                       "in_proj": w(kk[0], (D, 2 * E), D),
                       "conv": w(kk[1], (KCONV, E), KCONV),
                       "x_dt": w(kk[2], (E, E), E), "dt_bias": jnp.full((E,), -3.0, DT),
                       "x_B": w(kk[3], (E, N), E), "x_C": w(kk[4], (E, N), E),
                       "A_log": jnp.log(jnp.broadcast_to(jnp.arange(1, N + 1, dtype=jnp.float32), (E, N))).astype(DT),
                       "Dskip": jnp.ones((E,), DT),
                       "out_proj": w(kk[5], (E, D), E)})
    return {"embed": w(ks[0], (VOCAB, D), 1.0) * 0.02, "layers": layers, "norm_f": jnp.ones((D,), DT)}


def rmsnorm(g, x):
    return x * jax.lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-5) * g


def causal_conv(w, x):              # x [B,L,E], depthwise, kernel KCONV
    xp = jnp.pad(x, ((0, 0), (KCONV - 1, 0), (0, 0)))
    return sum(w[k] * xp[:, k:k + x.shape[1]] for k in range(KCONV))


def ssm_combine(a, b):
    (a1, b1), (a2, b2) = a, b
    return a1 * a2, a2 * b1 + b2


def mamba_block(p, h):
    xz = rmsnorm(p["norm"], h) @ p["in_proj"]
    x, z = jnp.split(xz, 2, axis=-1)
    x = jax.nn.silu(causal_conv(p["conv"], x))
    delta = jax.nn.softplus(x @ p["x_dt"] + p["dt_bias"])                  # [B,L,E]
    Bt, Ct = x @ p["x_B"], x @ p["x_C"]                                    # [B,L,N]
    A = -jnp.exp(p["A_log"])                                               # [E,N]
    dA = jnp.exp(delta[..., None] * A)                                     # [B,L,E,N]
    dBx = (delta * x)[..., None] * Bt[:, :, None, :]                       # [B,L,E,N]
    _, states = jax.lax.associative_scan(ssm_combine, (dA, dBx), axis=1)   # [B,L,E,N]
    y = jnp.einsum("blen,bln->ble", states, Ct) + p["Dskip"] * x
    return h + (y * jax.nn.silu(z)) @ p["out_proj"]


def loss_fn(params, tokens):
    h = params["embed"][tokens[:, :-1]]
    for p in params["layers"]:
        h = mamba_block(p, h)
    logits = (rmsnorm(params["norm_f"], h) @ params["embed"].T).astype(jnp.float32)
    return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()


opt = optax.adamw(1e-3, weight_decay=0.1)


@jax.jit
def train_step(params, opt_state, tokens):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


params = init(jax.random.PRNGKey(0))
opt_state = opt.init(params)
tokens = jax.random.randint(jax.random.PRNGKey(1), (B, L + 1), 0, VOCAB)
if CFG["ma"]:
    ma = train_step.lower(params, opt_state, tokens).compile().memory_analysis()
    print({k: getattr(ma, k) for k in dir(ma) if k.endswith("_in_bytes")})
    sys.exit(0)
print(f"params {sum(x.size for x in jax.tree_util.tree_leaves(params))}, state per layer "
      f"{B * L * E * N * jnp.dtype(DT).itemsize / 2**30:.2f} GiB", flush=True)
for i in range(CFG["steps"]):
    t0 = time.time()
    params, opt_state, loss = train_step(params, opt_state, tokens)
    print(f"step {i}: loss {float(loss):.4f} ({time.time() - t0:.1f} s)", flush=True)
st = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines() if l.startswith(("VmPeak", "VmHWM")))
print("done:", {k: v.strip() for k, v in st.items()}, flush=True)
