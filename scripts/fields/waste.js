// waste: bytes a value was given beyond its logical size (size= minus ByteSizeOf of its shape).
// On TPU this is tiling padding as the compiler applied it; on CPU and GPU it is usually 0.
//   run scripts/fields/waste.js
//   values where waste > 1KiB order by waste desc show label, shape, size, logical_size, waste
bufq.field('values', 'waste', function (v) {
  if (v.logical_size === null) return null;
  return v.size - v.logical_size;
}, { type: 'bytes', doc: 'size - logical_size: bytes given beyond the shape (scripts/fields/waste.js)' });
