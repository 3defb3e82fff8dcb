# Two-layer LSTM language model, one Adam training step (teacher forcing, lax.scan over time).
import sys, time, jax, jax.numpy as jnp, optax
A = dict(a.split("=") for a in sys.argv[1:])
B = int(A.get("B", 64)); T = int(A.get("T", 256)); V = int(A.get("V", 8192))
E = int(A.get("E", 512)); H = int(A.get("H", 1024)); L = int(A.get("L", 2))

def init(key):
    ks = jax.random.split(key, 2 + L)
    p = {"embed": jax.random.normal(ks[0], (V, E)) * 0.02,
         "out_w": jax.random.normal(ks[1], (H, V)) * 0.02, "out_b": jnp.zeros((V,)), "lstm": []}
    for l in range(L):
        din = E if l == 0 else H
        k1, k2 = jax.random.split(ks[2 + l])
        p["lstm"].append({"wx": jax.random.normal(k1, (din, 4 * H)) / jnp.sqrt(din),
                          "wh": jax.random.normal(k2, (H, 4 * H)) / jnp.sqrt(H),
                          "b": jnp.zeros((4 * H,))})
    return p

def lstm_layer(lp, xs):  # xs: [T, B, din]
    xw = xs @ lp["wx"] + lp["b"]
    def cell(carry, xt):
        h, c = carry
        z = xt + h @ lp["wh"]
        i, f, g, o = jnp.split(z, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
        h = jax.nn.sigmoid(o) * jnp.tanh(c)
        return (h, c), h
    h0 = jnp.zeros((xs.shape[1], H))
    _, hs = jax.lax.scan(cell, (h0, h0), xw)
    return hs

def loss_fn(p, tokens):
    x = p["embed"][tokens[:, :-1]].transpose(1, 0, 2)  # [T, B, E]
    for lp in p["lstm"]:
        x = lstm_layer(lp, x)
    logits = x.transpose(1, 0, 2) @ p["out_w"] + p["out_b"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

opt = optax.adam(1e-3)

@jax.jit
def train_step(p, s, tokens):
    loss, g = jax.value_and_grad(loss_fn)(p, tokens)
    u, s = opt.update(g, s, p)
    return optax.apply_updates(p, u), s, loss

if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0)); state = opt.init(params)
    tokens = jax.random.randint(jax.random.PRNGKey(1), (B, T + 1), 0, V)
    t = time.time()
    params, state, loss = train_step(params, state, tokens)
    print("loss", float(loss), "time", time.time() - t, flush=True)
