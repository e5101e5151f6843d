// The histogram of a view's values over its levels' range, and a 1D profile of the values
// along a line across the image.

/** Bars of `counts` across the canvas, with the range's ends written under them. */
export function drawHistogram(canvas, counts, [lo, hi]) {
  const g = canvas.getContext("2d");
  const { width: w, height: h } = canvas;
  g.clearRect(0, 0, w, h);
  const top = Math.max(1, ...counts);
  g.fillStyle = "#6aa0d8";
  const bar = w / counts.length;
  counts.forEach((c, i) => {
    const bh = (c / top) * (h - 14);
    g.fillRect(i * bar, h - 14 - bh, Math.max(1, bar - 0.5), bh);
  });
  g.fillStyle = "#ccc";
  g.font = "10px sans-serif";
  g.fillText(short(lo), 2, h - 2);
  const right = short(hi);
  g.fillText(right, w - g.measureText(right).width - 2, h - 2);
}

/** The values under a line from `a` to `b` (texel coordinates), one per texel step. */
export function sampleLine(values, width, height, a, b) {
  const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1])));
  const out = [];
  for (let i = 0; i <= steps; i++) {
    const x = Math.round(a[0] + ((b[0] - a[0]) * i) / steps);
    const y = Math.round(a[1] + ((b[1] - a[1]) * i) / steps);
    if (x >= 0 && y >= 0 && x < width && y < height) out.push(values[y * width + x]);
  }
  return out;
}

/** A polyline of `samples` with the levels' range as its vertical extent. */
export function drawProfile(canvas, samples, [lo, hi]) {
  const g = canvas.getContext("2d");
  const { width: w, height: h } = canvas;
  g.clearRect(0, 0, w, h);
  g.strokeStyle = "#444";
  g.beginPath();
  const zero = h - ((0 - lo) / (hi - lo)) * h;
  g.moveTo(0, zero);
  g.lineTo(w, zero);
  g.stroke();
  g.strokeStyle = "#f0c060";
  g.beginPath();
  samples.forEach((v, i) => {
    const x = (i / Math.max(1, samples.length - 1)) * w;
    const y = h - ((v - lo) / (hi - lo)) * h;
    if (i === 0) g.moveTo(x, y);
    else g.lineTo(x, y);
  });
  g.stroke();
}

function short(x) {
  return Number(x.toPrecision(4)).toString();
}
