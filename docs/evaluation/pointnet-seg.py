# PointNet semantic segmentation (flax.linen): input and feature T-Nets, shared per-point MLPs,
# global max-pool feature concatenated back to each point, per-point class logits. One Adam step.
import sys, time, jax, jax.numpy as jnp, optax
import flax.linen as nn
A = dict(a.split("=") for a in sys.argv[1:])
B = int(A.get("B", 32)); N = int(A.get("N", 4096)); C = int(A.get("C", 13)); G = int(A.get("G", 1024))

class TNet(nn.Module):
    k: int
    @nn.compact
    def __call__(self, x):                       # [B, N, c]
        h = nn.relu(nn.Dense(64)(x)); h = nn.relu(nn.Dense(128)(h)); h = nn.relu(nn.Dense(G)(h))
        h = h.max(1)
        h = nn.relu(nn.Dense(512)(h)); h = nn.relu(nn.Dense(256)(h))
        m = nn.Dense(self.k * self.k, kernel_init=nn.initializers.zeros)(h).reshape(-1, self.k, self.k)
        return m + jnp.eye(self.k)

class PointNetSeg(nn.Module):
    @nn.compact
    def __call__(self, pts):                     # [B, N, 3]
        x = jnp.einsum("bnc,bcd->bnd", pts, TNet(3)(pts))
        x = nn.relu(nn.Dense(64)(x)); x = nn.relu(nn.Dense(64)(x))
        tf = TNet(64)(x)
        local = jnp.einsum("bnc,bcd->bnd", x, tf)
        h = nn.relu(nn.Dense(64)(local)); h = nn.relu(nn.Dense(128)(h)); h = nn.relu(nn.Dense(G)(h))
        glob = h.max(1, keepdims=True)
        h = jnp.concatenate([local, jnp.broadcast_to(glob, (h.shape[0], h.shape[1], G))], -1)
        h = nn.relu(nn.Dense(512)(h)); h = nn.relu(nn.Dense(256)(h)); h = nn.relu(nn.Dense(128)(h))
        return nn.Dense(C)(h), tf

model = PointNetSeg()
opt = optax.adam(1e-3)

@jax.jit
def train_step(params, s, pts, labels):
    def loss_fn(p):
        logits, tf = model.apply({"params": p}, pts)
        reg = jnp.mean(jnp.sum((tf @ tf.transpose(0, 2, 1) - jnp.eye(64)) ** 2, (1, 2)))
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean() + 1e-3 * reg
    loss, g = jax.value_and_grad(loss_fn)(params)
    u, s = opt.update(g, s, params)
    return optax.apply_updates(params, u), s, loss

if __name__ == "__main__":
    pts = jax.random.normal(jax.random.PRNGKey(1), (B, N, 3))
    labels = jax.random.randint(jax.random.PRNGKey(2), (B, N), 0, C)
    params = jax.jit(model.init)(jax.random.PRNGKey(0), pts[:1])["params"]; state = opt.init(params)
    t = time.time()
    params, state, loss = train_step(params, state, pts, labels)
    print("loss", float(loss), "time", time.time() - t, flush=True)
