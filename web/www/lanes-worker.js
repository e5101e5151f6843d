// One web worker of the CPU engine (lanes.js): its own instance of the library in wasm renders
// the bands of rows it is sent on the SIMD lanes and sends their texels back, or with `rgba`
// (the band's own spec: its rows' size) their colours through the levels (export.js).
import init, { render_lanes_rows, view_of_lanes } from "./pkg/gpu_noise_web.js";

await init();
self.onmessage = ({ data: { id, spec, first, rows, rgba } }) => {
  try {
    const values = render_lanes_rows(spec, first, rows);
    if (!rgba) {
      self.postMessage({ id, values }, [values.buffer]);
      return;
    }
    const view = view_of_lanes(rgba, values);
    const colours = view.rgba();
    view.free();
    self.postMessage({ id, values: colours }, [colours.buffer]);
  } catch (e) {
    self.postMessage({ id, error: String(e?.message ?? e) });
  }
};
self.postMessage({ ready: true });
