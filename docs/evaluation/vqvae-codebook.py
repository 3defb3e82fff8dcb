# VQ-VAE (flax.linen) on 64x64 RGB images: conv encoder -> nearest-codebook quantization (straight-through)
# -> conv-transpose decoder; loss = recon + codebook + beta*commitment. One Adam step.
import sys, time, jax, jax.numpy as jnp, optax
import flax.linen as nn
A = dict(a.split("=") for a in sys.argv[1:])
B = int(A.get("B", 128)); IMG = int(A.get("IMG", 64)); K = int(A.get("K", 8192)); D = int(A.get("D", 64))
CH = int(A.get("CH", 128)); BETA = 0.25

class VQVAE(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Conv(CH, (4, 4), (2, 2))(x))
        h = nn.relu(nn.Conv(2 * CH, (4, 4), (2, 2))(h))
        h = nn.relu(nn.Conv(2 * CH, (3, 3))(h))
        ze = nn.Conv(D, (1, 1))(h)                                   # [B, H/4, W/4, D]
        codebook = self.param("codebook", nn.initializers.uniform(1.0 / K), (K, D))
        flat = ze.reshape(-1, D)
        dist = (flat ** 2).sum(1, keepdims=True) - 2 * flat @ codebook.T + (codebook ** 2).sum(1)[None, :]
        idx = jnp.argmin(dist, 1)
        zq = codebook[idx].reshape(ze.shape)
        cb_loss = jnp.mean((zq - jax.lax.stop_gradient(ze)) ** 2)
        commit = jnp.mean((jax.lax.stop_gradient(zq) - ze) ** 2)
        zq = ze + jax.lax.stop_gradient(zq - ze)
        h = nn.relu(nn.Conv(2 * CH, (3, 3))(zq))
        h = nn.relu(nn.ConvTranspose(CH, (4, 4), (2, 2))(h))
        xr = nn.ConvTranspose(3, (4, 4), (2, 2))(h)
        return xr, cb_loss + BETA * commit

model = VQVAE()
opt = optax.adam(2e-4)

@jax.jit
def train_step(params, s, x):
    def loss_fn(p):
        xr, vq = model.apply({"params": p}, x)
        return jnp.mean((xr - x) ** 2) + vq
    loss, g = jax.value_and_grad(loss_fn)(params)
    u, s = opt.update(g, s, params)
    return optax.apply_updates(params, u), s, loss

if __name__ == "__main__":
    x = jax.random.uniform(jax.random.PRNGKey(1), (B, IMG, IMG, 3))
    params = jax.jit(model.init)(jax.random.PRNGKey(0), x[:2])["params"]; state = opt.init(params)
    t = time.time()
    params, state, loss = train_step(params, state, x)
    print("loss", float(loss), "time", time.time() - t, flush=True)
