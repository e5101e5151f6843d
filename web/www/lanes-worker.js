// One web worker of the CPU engine (lanes.js): its own instance of the library in wasm renders
// the bands of rows it is sent on the SIMD lanes and sends their texels back.
import init, { render_lanes_rows } from "./pkg/gpu_noise_web.js";

await init();
self.onmessage = ({ data: { id, spec, first, rows } }) => {
  try {
    const values = render_lanes_rows(spec, first, rows);
    self.postMessage({ id, values }, [values.buffer]);
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
};
self.postMessage({ ready: true });
