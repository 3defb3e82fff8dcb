# Token-level knowledge distillation of a language model: frozen teacher (large residual-MLP LM with
# causal token mixing) -> small student, loss = T^2 * KL(teacher_T || student_T) + CE on labels. One Adam step.
import sys, time, jax, jax.numpy as jnp, optax
A = dict(a.split("=") for a in sys.argv[1:])
B = int(A.get("B", 16)); T = int(A.get("T", 512)); V = int(A.get("V", 16384))
DT = int(A.get("DT", 1024)); LT = int(A.get("LT", 4)); DS = int(A.get("DS", 384)); LS = int(A.get("LS", 2))
TEMP = float(A.get("TEMP", 2.0)); ALPHA = float(A.get("ALPHA", 0.5))

def init_lm(key, d, nl):
    ks = jax.random.split(key, 2 + 2 * nl)
    p = {"embed": jax.random.normal(ks[0], (V, d)) * 0.02, "head": jax.random.normal(ks[1], (d, V)) / jnp.sqrt(d),
         "blocks": []}
    for l in range(nl):
        p["blocks"].append({"mix": jnp.full((d,), 0.5), "ln": jnp.ones((d,)),
                            "w1": jax.random.normal(ks[2 + 2 * l], (d, 4 * d)) / jnp.sqrt(d),
                            "w2": jax.random.normal(ks[3 + 2 * l], (4 * d, d)) / jnp.sqrt(4 * d) * 0.5})
    return p

def rmsnorm(x, g):
    return x * jax.lax.rsqrt((x * x).mean(-1, keepdims=True) + 1e-6) * g

def lm(p, tokens):
    x = p["embed"][tokens]                                     # [B, T, d]
    for b in p["blocks"]:
        causal_mean = jnp.cumsum(x, 1) / jnp.arange(1, x.shape[1] + 1)[None, :, None]
        h = rmsnorm(x + b["mix"] * causal_mean, b["ln"])
        x = x + jax.nn.gelu(h @ b["w1"]) @ b["w2"]
    return x @ p["head"]                                       # [B, T, V]

def loss_fn(student, teacher, tokens):
    inp, lab = tokens[:, :-1], tokens[:, 1:]
    t_logits = jax.lax.stop_gradient(lm(teacher, inp))
    s_logits = lm(student, inp)
    t_prob = jax.nn.softmax(t_logits / TEMP, -1)
    kl = (t_prob * (jax.nn.log_softmax(t_logits / TEMP, -1) - jax.nn.log_softmax(s_logits / TEMP, -1))).sum(-1).mean()
    ce = optax.softmax_cross_entropy_with_integer_labels(s_logits, lab).mean()
    return ALPHA * TEMP ** 2 * kl + (1 - ALPHA) * ce

opt = optax.adamw(3e-4)

@jax.jit
def train_step(student, s, teacher, tokens):
    loss, g = jax.value_and_grad(loss_fn)(student, teacher, tokens)
    u, s = opt.update(g, s, student)
    return optax.apply_updates(student, u), s, loss

if __name__ == "__main__":
    teacher = init_lm(jax.random.PRNGKey(0), DT, LT)
    student = init_lm(jax.random.PRNGKey(1), DS, LS); state = opt.init(student)
    tokens = jax.random.randint(jax.random.PRNGKey(2), (B, T + 1), 0, V)
    t = time.time()
    student, state, loss = train_step(student, state, teacher, tokens)
    print("loss", float(loss), "time", time.time() - t, flush=True)
