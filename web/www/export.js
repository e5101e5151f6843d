// Exports past the view's size: the current spec at any size up to MAX_SIDE texels a side,
// rendered band by band by web workers (each its own instance of the library in wasm, on the
// SIMD lanes: the tool's `--backend simd` bits), written as it goes, so the page never holds
// the whole image: a PNG (the levels the view shows, the rows deflated by the browser's own
// CompressionStream as they arrive) or the raw little-endian f32 values the tool's `.f32`
// holds. Progress and cancel go through `onProgress` and an AbortSignal.

/** The largest export side (the tool's own limit on a side is far past what a page can hold). */
export const MAX_SIDE = 32768;
/** Texels a band holds: enough to keep a worker busy, few enough to keep memory small. */
const BAND_TEXELS = 1 << 20;

/** `WxH` as `[w, h]`, or an Error that names the field and the range. */
export function exportSize(text) {
  const m = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(String(text));
  const sides = m ? [Number(m[1]), Number(m[2])] : [];
  if (sides.length !== 2 || sides.some((s) => !(s >= 1 && s <= MAX_SIDE))) {
    return new Error(`export size: ${JSON.stringify(String(text).slice(0, 40))} is not WIDTHxHEIGHT with each side in 1..=${MAX_SIDE}`);
  }
  return sides;
}

/** Renders the spec `textOf(size)` writes (the page's, at that size, with the levels the view
 *  shows, so every band maps alike) at `[width, height]`, band by band on `workers` (a
 *  LaneWorkers), and returns the file as a Blob: `format` "png" or "f32". Rejects with the
 *  reason on a worker's error or when `signal` aborts. */
export async function exportLarge(textOf, [width, height], format, { workers, onProgress = () => {}, signal }) {
  const text = textOf([width, height]);
  if (format === "f32" && /"channels":\s*"normal"/.test(text)) {
    throw new Error("export: raw f32 holds values; a normal map exports as PNG");
  }
  const rows = Math.max(1, Math.floor(BAND_TEXELS / width));
  const bands = Math.ceil(height / rows);
  const sink = format === "png" ? new PngWriter(width, height) : new RawWriter();
  const started = performance.now();
  // At most one band per worker in flight, written in order.
  const pending = [];
  let next = 0;
  const send = () => {
    const first = next * rows;
    const count = Math.min(rows, height - first);
    const worker = workers.workers[next % workers.workers.length];
    const rgba = format === "png" ? textOf([width, count]) : null;
    pending.push({ first, count, done: workers.band(worker, text, first, count, rgba) });
    next++;
  };
  while (next < bands && pending.length < workers.workers.length) send();
  for (let written = 0; written < bands; written++) {
    if (signal?.aborted) throw new Error("export: cancelled");
    const band = pending.shift();
    const data = await band.done;
    if (signal?.aborted) throw new Error("export: cancelled");
    if (next < bands) send();
    await sink.write(data, width, band.count);
    onProgress({ rows: band.first + band.count, height, seconds: (performance.now() - started) / 1000 });
  }
  return sink.finish();
}

/** The raw values, band after band. */
class RawWriter {
  constructor() {
    this.parts = [];
  }

  async write(values) {
    this.parts.push(values);
  }

  async finish() {
    return new Blob(this.parts, { type: "application/octet-stream" });
  }
}

/** A PNG written as its rows arrive: 8-bit RGB, no filter, the image data deflated by the
 *  browser's CompressionStream("deflate") (zlib, as PNG's IDAT holds) and cut into IDAT
 *  chunks as it comes out. */
class PngWriter {
  constructor(width, height) {
    const header = new DataView(new ArrayBuffer(13));
    header.setUint32(0, width);
    header.setUint32(4, height);
    header.setUint8(8, 8); // bits per sample
    header.setUint8(9, 2); // colour type: RGB
    this.parts = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", new Uint8Array(header.buffer))];
    const stream = new CompressionStream("deflate");
    this.input = stream.writable.getWriter();
    this.drained = (async () => {
      const reader = stream.readable.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        this.parts.push(chunk("IDAT", value));
      }
    })();
  }

  /** A band of `count` rows of `width` texels as RGBA bytes. */
  async write(rgba, width, count) {
    const rows = new Uint8Array(count * (1 + 3 * width));
    for (let y = 0; y < count; y++) {
      const row = y * (1 + 3 * width); // filter byte 0: none
      for (let x = 0; x < width; x++) {
        const [from, to] = [4 * (y * width + x), row + 1 + 3 * x];
        rows[to] = rgba[from];
        rows[to + 1] = rgba[from + 1];
        rows[to + 2] = rgba[from + 2];
      }
    }
    await this.input.write(rows);
  }

  async finish() {
    await this.input.close();
    await this.drained;
    this.parts.push(chunk("IEND", new Uint8Array(0)));
    return new Blob(this.parts, { type: "image/png" });
  }
}

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type, data) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

let crcTable = null;

/** CRC-32 (ISO 3309, as PNG's chunks use). */
function crc32(bytes) {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
