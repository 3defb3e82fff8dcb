// XLA's TPU tiling rule, the same as bufq's built-in 'tpu' model (see FORMAT.md, "Shapes and layouts").
// Use it as the model to copy when writing one for other hardware:
//   run scripts/tiling/tpu.js
//   set tiling tpu-js
//
// Only the first tile counts. Tile dimension k-1-i pads the array dimension minor_to_major[i] up to
// a multiple of itself (dimensions past the rank count as 1, so a scalar with T(128) holds 128
// elements); the remaining major dimensions are not padded. Bytes are elements times the element
// width, packed when the layout carries E(bits).
//
// One rule is not the shape's tiles: on a TPU dump, an array without tiles outside SMEM (memory
// space 2) takes whole runs of 1024 elements (a sync flag s32[2]{0:S(4)} and s32[] take 4096 bytes,
// pred[] 1024; untiled SMEM arrays are their logical size). `place` says where the value is held.
bufq.tiling('tpu-js', function (shape, place) {
  function bytesOf(elements) {
    if (shape.element_size_bits > 0) return Math.ceil(elements * shape.element_size_bits / 8);
    return elements * Math.ceil(shape.element_bits / 8);
  }

  const dims = shape.dims;
  const m2m = shape.minor_to_major;
  if (shape.tiles.length === 0 || m2m === null) {
    let n = 1;
    for (let i = 0; i < dims.length; i++) n *= dims[i];
    if (place.backend === 'tpu' && shape.tiles.length === 0 && shape.memory_space !== 2) {
      return Math.max(1, Math.ceil(n / 1024)) * 1024 * Math.ceil(shape.element_bits / 8);
    }
    return bytesOf(n);
  }
  const tile = shape.tiles[0];
  const k = tile.length;
  let elements = 1;
  for (let i = 0; i < k; i++) {
    const t = tile[k - 1 - i];
    const d = i < m2m.length ? dims[m2m[i]] : 1;
    elements *= t > 0 ? Math.ceil(d / t) * t : d;
  }
  for (let i = k; i < m2m.length; i++) elements *= dims[m2m[i]];
  return bytesOf(elements);
});
