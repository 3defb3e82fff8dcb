# NeRF: one Adam step on a batch of rays; coarse MLP on stratified samples along each ray, volume rendering.
import sys, time, jax, jax.numpy as jnp, optax
A = dict(a.split("=") for a in sys.argv[1:])
R = int(A.get("R", 4096)); S = int(A.get("S", 128)); W = int(A.get("W", 256)); D = int(A.get("D", 8))
LX = int(A.get("LX", 10)); LD = int(A.get("LD", 4))

def posenc(x, L):
    freqs = 2.0 ** jnp.arange(L)
    xf = x[..., None, :] * freqs[:, None]
    return jnp.concatenate([x, jnp.sin(xf).reshape(*x.shape[:-1], -1), jnp.cos(xf).reshape(*x.shape[:-1], -1)], -1)

def dense(key, i, o):
    return {"w": jax.random.normal(key, (i, o)) * jnp.sqrt(2.0 / i), "b": jnp.zeros((o,))}

def init(key):
    ks = jax.random.split(key, D + 4)
    dx, dd = 3 + 6 * LX, 3 + 6 * LD
    trunk = [dense(ks[0], dx, W)] + [dense(ks[i], W + (dx if i == D // 2 else 0), W) for i in range(1, D)]
    return {"trunk": trunk, "sigma": dense(ks[D], W, 1), "feat": dense(ks[D + 1], W, W),
            "rgb1": dense(ks[D + 2], W + dd, W // 2), "rgb2": dense(ks[D + 3], W // 2, 3)}

def field(p, pts, dirs):
    ex, ed = posenc(pts, LX), posenc(dirs, LD)
    h = ex
    for i, l in enumerate(p["trunk"]):
        if i == D // 2:
            h = jnp.concatenate([h, ex], -1)
        h = jax.nn.relu(h @ l["w"] + l["b"])
    sigma = jax.nn.softplus((h @ p["sigma"]["w"] + p["sigma"]["b"])[..., 0])
    f = h @ p["feat"]["w"] + p["feat"]["b"]
    c = jax.nn.relu(jnp.concatenate([f, ed], -1) @ p["rgb1"]["w"] + p["rgb1"]["b"])
    rgb = jax.nn.sigmoid(c @ p["rgb2"]["w"] + p["rgb2"]["b"])
    return sigma, rgb

def render(p, origins, dirs, key):
    t = jnp.linspace(2.0, 6.0, S)
    t = t + jax.random.uniform(key, (origins.shape[0], S)) * (4.0 / S)
    pts = origins[:, None, :] + t[..., None] * dirs[:, None, :]
    sigma, rgb = field(p, pts, jnp.broadcast_to(dirs[:, None, :], pts.shape))
    delta = jnp.concatenate([t[:, 1:] - t[:, :-1], jnp.full((t.shape[0], 1), 1e10)], -1)
    alpha = 1 - jnp.exp(-sigma * delta)
    trans = jnp.cumprod(jnp.concatenate([jnp.ones_like(alpha[:, :1]), 1 - alpha[:, :-1] + 1e-10], -1), -1)
    w = alpha * trans
    return (w[..., None] * rgb).sum(1)

opt = optax.adam(5e-4)

@jax.jit
def train_step(p, s, origins, dirs, target, key):
    loss, g = jax.value_and_grad(lambda p: jnp.mean((render(p, origins, dirs, key) - target) ** 2))(p)
    u, s = opt.update(g, s, p)
    return optax.apply_updates(p, u), s, loss

if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0)); state = opt.init(params)
    k = jax.random.split(jax.random.PRNGKey(1), 4)
    origins = jax.random.normal(k[0], (R, 3)) * 0.1
    dirs = jax.random.normal(k[1], (R, 3)); dirs = dirs / jnp.linalg.norm(dirs, axis=-1, keepdims=True)
    target = jax.random.uniform(k[2], (R, 3))
    t = time.time()
    params, state, loss = train_step(params, state, origins, dirs, target, k[3])
    print("loss", float(loss), "time", time.time() - t, flush=True)
