# Neural ODE classifier: encoder -> fixed-step RK4 integration of an MLP vector field -> linear head.
# Gradients by backprop through the solver (discretize-then-optimize), one Adam step.
import sys, time, jax, jax.numpy as jnp, optax
A = dict(a.split("=") for a in sys.argv[1:])
B = int(A.get("B", 2048)); DIN = int(A.get("DIN", 784)); Z = int(A.get("Z", 128))
H = int(A.get("H", 1024)); STEPS = int(A.get("STEPS", 64)); C = int(A.get("C", 10))

def init(key):
    k = jax.random.split(key, 5)
    return {"enc": jax.random.normal(k[0], (DIN, Z)) / jnp.sqrt(DIN),
            "f1": jax.random.normal(k[1], (Z + 1, H)) / jnp.sqrt(Z + 1), "b1": jnp.zeros((H,)),
            "f2": jax.random.normal(k[2], (H, H)) / jnp.sqrt(H), "b2": jnp.zeros((H,)),
            "f3": jax.random.normal(k[3], (H, Z)) / jnp.sqrt(H) * 0.1, "b3": jnp.zeros((Z,)),
            "head": jax.random.normal(k[4], (Z, C)) / jnp.sqrt(Z)}

def vf(p, t, z):
    zt = jnp.concatenate([z, jnp.full((z.shape[0], 1), t)], -1)
    h = jnp.tanh(zt @ p["f1"] + p["b1"])
    h = jnp.tanh(h @ p["f2"] + p["b2"])
    return h @ p["f3"] + p["b3"]

def odeint_rk4(p, z, t1=1.0):
    dt = t1 / STEPS
    def step(z, i):
        t = i * dt
        k1 = vf(p, t, z); k2 = vf(p, t + dt / 2, z + dt / 2 * k1)
        k3 = vf(p, t + dt / 2, z + dt / 2 * k2); k4 = vf(p, t + dt, z + dt * k3)
        return z + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4), None
    z, _ = jax.lax.scan(step, z, jnp.arange(STEPS, dtype=jnp.float32))
    return z

def loss_fn(p, x, y):
    z = odeint_rk4(p, x @ p["enc"])
    return optax.softmax_cross_entropy_with_integer_labels(z @ p["head"], y).mean()

opt = optax.adam(1e-3)

@jax.jit
def train_step(p, s, x, y):
    loss, g = jax.value_and_grad(loss_fn)(p, x, y)
    u, s = opt.update(g, s, p)
    return optax.apply_updates(p, u), s, loss

if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0)); state = opt.init(params)
    x = jax.random.normal(jax.random.PRNGKey(1), (B, DIN)); y = jax.random.randint(jax.random.PRNGKey(2), (B,), 0, C)
    t = time.time()
    params, state, loss = train_step(params, state, x, y)
    print("loss", float(loss), "time", time.time() - t, flush=True)
