"""Deviceless XLA:TPU compile harness, copied from the corpus' tpu.py (parent/child re-run, topology, compile,
collect of the main module's buffer-assignment files, exception.txt / run.log / meta.json / memory_analysis.json).

A case script does:
    import harness
    C = harness.config(DEFAULTS)          # parses KEY=VALUE (before jax is imported)
    import jax ...
    def build(devices): ... return jitted, args(tuple of ShapeDtypeStructs with NamedShardings), meta(dict)
    harness.main(build)
and is run as:  python SCRIPT OUTDIR [KEY=VALUE ...]
The script re-runs itself in a child process; run.log holds what the child printed (libtpu's start-up
warnings filtered out), ending with the Python traceback when the compile fails; exception.txt is str(e).
"""
import os, sys, json, glob, shutil, tempfile, time, re, subprocess

SCRIPT = os.path.abspath(sys.argv[0])
HERE = os.path.dirname(SCRIPT)
CHILD = os.environ.get("TPU_GEN_CHILD") == "1"


def filter_log(text):
    out, skip = [], False
    for line in text.splitlines():
        if line.startswith("E0000 ") or line.startswith("=== Source Location Trace"):
            skip = True
            continue
        if skip and (re.match(r"^[\w./-]+\.(cc|h):\d+", line) or not line.strip()):
            continue
        skip = False
        if re.match(r"^(Failed to find host bounds|WARNING: could not determine TPU|WARNING: Logging before InitGoogle)", line):
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def _parent():
    if len(sys.argv) < 2:
        print(sys.modules["__main__"].__doc__ or "usage: SCRIPT OUTDIR [KEY=VALUE ...]")
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, TPU_GEN_CHILD="1", ALLOW_MULTIPLE_LIBTPU_LOAD="1", PYTHONUNBUFFERED="1",
               JAX_HLO_SOURCE_FILE_CANONICALIZATION_REGEX=r"^.*/(site-packages|holdout2/[^/]+)/")
    out_abs = os.path.abspath(out)
    name = os.path.basename(SCRIPT)
    cmd = [sys.executable, name, out_abs] + sys.argv[2:]
    p = subprocess.run(cmd, env=env, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    import sysconfig
    log = filter_log(p.stdout).replace(sysconfig.get_paths()["purelib"] + "/", "venv/lib/python3.11/site-packages/")
    log = log.replace(out_abs, os.path.basename(out_abs)).replace(HERE + "/", "")
    shown = f"python {name} " + " ".join([os.path.basename(os.path.normpath(out))] + sys.argv[2:])
    with open(os.path.join(out, "run.log"), "w") as f:
        f.write(f"$ {shown}\n" + log + f"(exit status {p.returncode})\n")
    sys.stdout.write(log)
    sys.exit(p.returncode)


C = {}
OUT = RAW = None
META = {}


def config(defaults):
    """Parse OUTDIR and KEY=VALUE (the child only; the parent re-runs the script and exits here)."""
    global OUT, RAW
    if not CHILD:
        _parent()
    OUT = sys.argv[1]
    args = dict(a.split("=", 1) for a in sys.argv[2:])
    C.update(defaults)
    for k, v in args.items():
        if k not in C:
            sys.exit(f"unknown key {k}")
        d = defaults[k]
        C[k] = v if isinstance(d, str) else (float(v) if isinstance(d, float) else int(v))
    RAW = tempfile.mkdtemp(prefix="tpu-gen-")
    os.environ["XLA_FLAGS"] = f"--xla_dump_to={RAW} " + C.get("xla_flags", "")
    os.environ.setdefault("TPU_SKIP_MDS_QUERY", "1")
    META.update(script=os.path.basename(SCRIPT), args=args, config=dict(C))
    return C


def devices():
    from jax.experimental import topologies
    return topologies.get_topology_desc(platform="tpu", topology_name=C.get("topo", "v5e:2x2")).devices


def spec_words(spec, mesh):
    import numpy as np
    parts = []
    for i, ax in enumerate(tuple(spec)):
        if ax is None:
            continue
        axes = ax if isinstance(ax, tuple) else (ax,)
        n = int(np.prod([mesh.shape[a] for a in axes]))
        parts.append(f"dim {i} split {n} ways over {'x'.join(repr(a) for a in axes)}")
    return "; ".join(parts) if parts else "replicated on every chip"


def describe_args(names, trees, mesh):
    import jax, jax.numpy as jnp
    from jax.sharding import NamedSharding, PartitionSpec as P
    rows = {}
    for name, tree in zip(names, trees):
        for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0]:
            sh = leaf.sharding
            spec = sh.spec if isinstance(sh, NamedSharding) else P()
            local = sh.shard_shape(leaf.shape)
            ss = lambda s: f"{jnp.dtype(leaf.dtype).name}[{','.join(map(str, s))}]"
            rows[name + jax.tree_util.keystr(path)] = dict(global_shape=ss(leaf.shape), per_chip_shape=ss(local),
                                                           spec=str(spec), words=spec_words(spec, mesh))
    return rows


def nbytes(tree):
    import jax, numpy as np, jax.numpy as jnp
    return int(sum(np.prod(l.shape) * jnp.dtype(l.dtype).itemsize for l in jax.tree_util.tree_leaves(tree)))


def nparams(tree):
    import jax, numpy as np
    return int(sum(np.prod(l.shape) for l in jax.tree_util.tree_leaves(tree)))


def collect(raw, out):
    dump = os.path.join(out, "dump")
    if os.path.isdir(dump):
        shutil.rmtree(dump)
    os.makedirs(dump)
    ba = glob.glob(os.path.join(raw, "*after_optimizations-buffer-assignment.txt"))
    if not ba:
        return []
    main = max(ba, key=os.path.getsize)
    prefix = main[: -len("after_optimizations-buffer-assignment.txt")]
    kept = []
    for suffix in ("after_optimizations-buffer-assignment.txt", "after_optimizations-buffer-assignment-values.txt",
                   "after_optimizations-live-range.txt", "after_optimizations-memory-usage-report.txt",
                   "after_optimizations.txt"):
        src = prefix + suffix
        if not os.path.exists(src):
            continue
        if suffix == "after_optimizations.txt" and os.path.getsize(src) >= 5_000_000:
            META["hlo_left_out"] = f"{os.path.basename(src)} is {os.path.getsize(src)} bytes (over 5 MB)"
            continue
        shutil.copy(src, dump)
        kept.append(os.path.basename(src))
    META["module_files"] = kept
    META["modules_in_raw_dump"] = sorted({os.path.basename(p).split(".")[1] for p in ba})
    return kept


def main(build):
    import jax
    import importlib.metadata as md
    t0 = time.time()
    devs = devices()
    jitted, args, meta = build(devs)
    META.update(topology=C.get("topo", "v5e:2x2"), chips=len(devs), device_kind=devs[0].device_kind,
                versions={p: md.version(p) for p in ("jax", "jaxlib", "libtpu", "optax")})
    META.update(meta)
    print(f"{META['script']}: {META.get('what', '')}")
    print(f"topology {META['topology']} ({len(devs)} x {devs[0].device_kind}), mesh {META.get('mesh')}, "
          f"{META.get('n_params', 0) / 1e6:.1f}M params")
    lowered = jitted.lower(*args)
    try:
        compiled = lowered.compile()
    except Exception as e:
        _finish(t0, None, e)
        raise
    _finish(t0, compiled, None)


def _finish(t0, compiled, err):
    META["compile_seconds"] = round(time.time() - t0, 1)
    collect(RAW, OUT)
    if err is None:
        ma = compiled.memory_analysis()
        fields = {k: int(getattr(ma, k)) for k in dir(ma) if k.endswith("_in_bytes")}
        with open(os.path.join(OUT, "memory_analysis.json"), "w") as f:
            json.dump(fields, f, indent=1)
        META["outcome"] = "compiled"
        a, o, al, t = (fields["argument_size_in_bytes"], fields["output_size_in_bytes"],
                       fields["alias_size_in_bytes"], fields["temp_size_in_bytes"])
        print("memory_analysis (per chip):", json.dumps(fields))
        print(f"arguments + outputs - aliased + temp = {(a + o - al + t) / 2**30:.3f} GiB; "
              f"peak {fields.get('peak_memory_in_bytes', 0) / 2**30:.3f} GiB")
        if os.path.exists(os.path.join(OUT, "exception.txt")):
            os.remove(os.path.join(OUT, "exception.txt"))
    else:
        META["outcome"] = "failed to compile"
        msg = str(err)
        META["error_first_line"] = msg.splitlines()[0] if msg else type(err).__name__
        with open(os.path.join(OUT, "exception.txt"), "w") as f:
            f.write(msg + ("\n" if not msg.endswith("\n") else ""))
        if os.path.exists(os.path.join(OUT, "memory_analysis.json")):
            os.remove(os.path.join(OUT, "memory_analysis.json"))
    with open(os.path.join(OUT, "meta.json"), "w") as f:
        json.dump(META, f, indent=1, default=str)
    shutil.rmtree(RAW, ignore_errors=True)
