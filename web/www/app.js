// The previewer: page state is a spec file (the JSON `gpu-noise render --spec` reads); every
// change renders it through the library in wasm (WebGPU, the SIMD lanes on the CPU, or the f64 twin), and the
// rendered spec (every field the render used, as `--print-spec` writes it) fills the controls.

import init, { Previewer, controls, render_twin_view, surface, version, view_of_lanes } from "./pkg/gpu_noise_web.js";
import { paramInput, paramValue, setOptions, showFieldError, showValue } from "./controls.js";
import { NodeEditor, THUMBNAIL_SIDE } from "./editor.js";
import { exportLarge, exportSize } from "./export.js";
import { LaneWorkers, laneWorkersFor } from "./lanes.js";
import { drawHistogram, drawProfile, sampleLine } from "./plots.js";
import { layoutFromAddress, parseSpec, specFromAddress, specText, specToAddress } from "./spec.js";

/** The 3D view's module (three.js), loaded when first shown. */
let view3d = null;
/** Vertices a side of the 3D view's mesh at most. */
const SURFACE_SIDE = 256;

const $ = (id) => document.getElementById(id);
const AXES = ["x", "y", "z", "w"];
const GRAPH = "graph";
/** The octaves a fractal sum starts with when picked from none (the bench's and README's fBm). */
const FRACTAL_OCTAVES = 6;
/** How long a render runs before the page shows that it is busy. */
const BUSY_AFTER_MS = 150;
/** A view shown this long is one Back returns to. */
const SETTLED_MS = 1000;

// The first view: six octaves of Perlin fBm in the terrain colormap (one gray octave said little).
// One-kind mode starts from it when a graph came first (a link, a file): a graph's range and
// offsets are its own and would clip or move a kind's image.
const FIRST_VIEW = { kind: "perlin", dims: 2, size: [512, 512], fractal: "fbm", octaves: FRACTAL_OCTAVES, colormap: "terrain" };

const page = {
  previewer: null,
  meta: null,
  spec: structuredClone(FIRST_VIEW),
  graphText: "",
  view: null,
  line: null, // the profile's line in texels, [a, b]
  frames: 0,
  frameMs: null,
  frameTexels: null,
  enteredAt: 0,
  rendering: false,
  dirty: false,
};

/** The spec's JSON as the tool reads it; a graph is written as its own text. */
function currentSpecText(extra = {}) {
  const spec = { ...page.spec, ...extra };
  return page.spec.graph === undefined ? specText(spec) : specText(spec, { graph: page.graphText });
}

async function main() {
  await init();
  page.meta = JSON.parse(controls());
  $("version").textContent = version();
  buildControls();
  buildEditor();
  const query = new URLSearchParams(location.search);
  $("engine").value = query.has("twin") ? "twin" : (query.get("engine") ?? "auto");
  const shared = specFromAddress();
  if (shared) adoptSpecText(shared);
  await openEngine($("engine").value);
  await render();
  page.autoTimed = timeEngines();
  // Back and Forward move between views (the address holds each), not off the page.
  window.addEventListener("popstate", () => {
    const text = specFromAddress();
    if (text) {
      adoptSpecText(text);
      render();
    }
  });
  window.gpuNoise.ready = true;
}

/** Opens the engine `choice` names (auto, webgpu, cpu: the SIMD lanes, twin: the f64 twin)
 *  and says which it got and why. auto opens at once the engine that wins on this kind of
 *  adapter (the CPU's SIMD lanes on a software rasterizer such as SwiftShader, WebGPU on a
 *  GPU), so the first frame never waits on timing; `timeEngines` then times the other in the
 *  background and switches where it is faster. */
async function openEngine(choice) {
  const adapter = ["cpu", "twin"].includes(choice) ? null : await navigator.gpu?.requestAdapter();
  const info = adapter?.info;
  // wgpu's adapter name is empty on the web; the browser's own description names it.
  const name = [info?.vendor, info?.architecture, info?.description].filter((t) => t).join(" ") || "WebGPU";
  page.previewer?.free?.();
  page.previewer = null;
  page.engineOpened = (page.engineOpened ?? 0) + 1;
  page.autoAdapter = choice === "auto" && adapter ? { name, software: isSoftware(adapter) } : null;
  const engine = choice === "twin" ? "twin"
    : choice === "cpu" || !adapter || page.autoAdapter?.software ? "lanes" : "webgpu";
  page.previewer = engine === "lanes" ? await openLanes() : await Previewer.open(engine);
  describeEngine(choice, adapter, name, null);
}

/** Whether `adapter` rasterizes in software (SwiftShader, llvmpipe, WARP), where the CPU's SIMD
 *  lanes in wasm are faster than its WebGPU. */
function isSoftware(adapter) {
  const info = adapter.info ?? {};
  if (info.isFallbackAdapter || adapter.isFallbackAdapter) return true;
  const words = [info.vendor, info.architecture, info.description].join(" ");
  return /swiftshader|llvmpipe|lavapipe|software|basic render/i.test(words);
}

/** The engine line and notice: which engine renders, and why (`timed`: auto's frame times). */
function describeEngine(choice, adapter, name, timed) {
  const onGpu = page.previewer.gpu;
  const ms = (t) => `${t.toFixed(0)} ms`;
  const guessed = page.autoAdapter && !timed;
  const why = timed ? ` (auto: a frame ${ms(onGpu ? timed.gpu : timed.lanes)}, the other ${ms(onGpu ? timed.lanes : timed.gpu)})`
    : guessed ? ` (auto: timing ${onGpu ? "the CPU lanes" : "WebGPU"} in the background)` : "";
  $("backend").textContent = (onGpu ? `WebGPU: ${name}` : page.previewer.backend) + why;
  $("backend").classList.toggle("twin", !onGpu);
  let notice = "";
  if (!onGpu && !["cpu", "twin"].includes(choice) && !adapter) {
    notice = "<strong>No WebGPU here.</strong> The page renders on the CPU with the library's SIMD lanes compiled to wasm (the GPU's f32 arithmetic, checked against the twin), single-threaded. Chrome and Edge have WebGPU; Chromium on Linux needs <code>--enable-unsafe-webgpu</code>.";
  } else if (!onGpu && timed) {
    notice = `<strong>The CPU is faster here</strong>: a frame of this view took ${ms(timed.lanes)} on the SIMD lanes in wasm and ${ms(timed.gpu)} on WebGPU (${name}), so the lanes render. Pick WebGPU under engine to use it anyway.`;
  } else if (!onGpu && guessed) {
    notice = `<strong>The CPU renders first</strong>: WebGPU here (${name}) is a software rasterizer, which the SIMD lanes in wasm outrun; WebGPU is being timed in the background and takes over if it is faster.`;
  } else if (page.previewer.twin) {
    notice = "The CPU twin renders (picked under engine): the f64 values the GPU and the lanes are checked against.";
  } else if (!onGpu) {
    notice = "The CPU's SIMD lanes render (picked under engine): the GPU's f32 arithmetic, within the stated bound of the twin.";
  }
  $("no-gpu").innerHTML = notice;
  $("no-gpu").hidden = notice === "";
}

/** auto's timing, after the first frame and without holding the page: the engine not in use
 *  renders the view twice (the second counts, past its pipelines' compilation) while the page
 *  keeps rendering on its own; the faster keeps the view. A new engine choice meanwhile drops
 *  the result. Resolves when done (`page.autoTimed` holds the promise). */
async function timeEngines() {
  const auto = page.autoAdapter;
  if (!auto) return;
  const opened = page.engineOpened;
  const current = page.previewer;
  let other = null;
  try {
    other = current.gpu ? await openLanes() : await Previewer.open("webgpu");
    const theirs = await frameMs(other);
    if (opened !== page.engineOpened) return;
    const mine = await framesHeld(current);
    if (opened !== page.engineOpened) return;
    const timed = current.gpu ? { gpu: mine, lanes: theirs } : { gpu: theirs, lanes: mine };
    if ((timed.lanes < timed.gpu) === !current.gpu) {
      describeEngine("auto", true, auto.name, timed);
      return;
    }
    while (page.rendering) await new Promise((later) => setTimeout(later, 20));
    if (opened !== page.engineOpened) return;
    page.previewer = other;
    other = current;
    describeEngine("auto", true, auto.name, timed);
    render();
  } catch (e) {
    // A view the other engine refuses: the engine in use keeps it.
    console.warn(`auto: ${e.message ?? e}`);
  } finally {
    other?.free?.();
  }
}

/** The CPU's SIMD lanes: on a worker per core (lanes.js), or on this thread where workers do
 *  not start (`?workers=0` asks for that). */
async function openLanes() {
  const asked = new URLSearchParams(location.search).get("workers");
  if (asked !== "0" && typeof Worker !== "undefined") {
    try {
      return await LaneWorkers.open(asked === null ? undefined : Number(asked));
    } catch (e) {
      console.warn(`${e.message}; the lanes render on this thread`);
    }
  }
  return Previewer.open("lanes");
}

/** `frameMs` of the engine the page renders on, taken between the page's own frames (an engine
 *  renders one frame at a time); a change meanwhile renders after it. */
async function framesHeld(previewer) {
  while (page.rendering) await new Promise((later) => setTimeout(later, 20));
  page.rendering = true;
  try {
    return await frameMs(previewer);
  } finally {
    page.rendering = false;
    if (page.dirty) render();
  }
}

/** Milliseconds of a frame of the current view on `previewer`: the second of two, so a first
 *  frame's pipeline compilation does not count (render and readback, as `page.renderMs`). */
async function frameMs(previewer) {
  let ms = 0;
  for (let i = 0; i < 2; i++) {
    const start = performance.now();
    const view = await previewer.render(currentSpecText());
    ms = performance.now() - start;
    view.free();
  }
  return ms;
}

/** Takes a spec's JSON (a shared address or a loaded file) as the page's state. */
function adoptSpecText(text) {
  const spec = parseSpec(text);
  delete spec.backend;
  // A graph's layout goes to the editor (syncEditor), not into the state the page renders.
  page.fileLayout = spec.layout ?? null;
  delete spec.layout;
  if (spec.graph !== undefined) {
    page.graphText = specText(spec.graph); // BigInt seeds stay exact
    $("graph").value = page.graphText;
    $("mode").value = "graph";
  } else {
    $("mode").value = "noise";
  }
  if (spec.size?.[0] !== undefined) $("size").value = String(spec.size[0]);
  page.spec = spec;
  showMode();
}

/** Renders the current spec; changes made while a frame is in flight render after it. */
async function render() {
  if (page.rendering) {
    page.dirty = true;
    return;
  }
  page.rendering = true;
  // A render that takes longer than a glance says so (Gabor at 1024^2 takes seconds): on
  // WebGPU the frame is awaited and a timer shows the sign; the CPU engines render without
  // yielding, so a frame expected to be slow shows it first and lets the page paint.
  const busy = setTimeout(() => showBusy(true), BUSY_AFTER_MS);
  try {
    do {
      page.dirty = false;
      if (expectedMs() > BUSY_AFTER_MS) {
        showBusy(true);
        await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
      }
      await renderOnce();
    } while (page.dirty);
  } finally {
    clearTimeout(busy);
    showBusy(false);
    page.rendering = false;
  }
}

/** The next frame's time from the last one's, scaled by the texels (unknown: 0). */
function expectedMs() {
  if (!page.frameMs || !page.frameTexels) return 0;
  const texels = (page.spec.size ?? []).reduce((a, b) => a * b, 1);
  return (page.frameMs * texels) / page.frameTexels;
}

function showBusy(on) {
  $("busy").hidden = !on;
  $("stage").setAttribute("aria-busy", String(on));
}

async function renderOnce() {
  const text = currentSpecText();
  const start = performance.now();
  let view;
  try {
    view = await page.previewer.render(text);
  } catch (e) {
    // A rejected value does not stay: the state goes back to the last spec that rendered (what
    // the image, the spec panel and the exports show), so the next change renders; the message
    // names what was refused until then.
    if (page.good !== undefined && currentSpecText() === text) {
      page.spec = structuredClone(page.good);
      // Every field shows the state that rendered but the one just typed in, which keeps its
      // text and says why it was refused.
      const typed = page.editedField;
      const kept = typed?.value;
      fillControls(true);
      if (typed?.isConnected) {
        typed.value = kept;
        showFieldError(typed, String(e.message ?? e));
      }
    }
    showError(e);
    return;
  }
  page.view?.free();
  page.view = view;
  page.values = view.values(); // one copy a frame: the profile reads it on every pointer move
  const rendered = performance.now();
  paint(view);
  page.frameMs = performance.now() - start;
  page.frameTexels = view.width * view.height;
  page.renderMs = rendered - start;
  page.frames += 1;
  showError(null);
  // A control changed during the frame: that newer state renders next; keep it.
  if (currentSpecText() === text) adoptRendered(view);
  // Back steps through the views a visitor settled on: a frame more than a second after the
  // last entry makes a new one; the frames of a drag replace it.
  const settled = page.frames > 1 && performance.now() - page.enteredAt > SETTLED_MS;
  specToAddress(currentSpecText(), settled, layoutOfView());
  page.enteredAt = performance.now();
  $("spec").textContent = currentSpecText({ backend: "cpu" });
  $("frame-time").textContent = `${view.width}x${view.height}: ${page.frameMs.toFixed(1)} ms a frame (render and readback ${page.renderMs.toFixed(1)} ms, then levels, histogram and draw)`;
  document.body.dataset.frames = String(page.frames);
  refreshThumbnailsOfWorld();
  // A new world, or a new engine (whose workers the world may have been using), starts it again.
  const worldMoved = page.worldText !== currentSpecText({ backend: "cpu" }) || page.worldEngine !== page.previewer;
  if (page.world && worldMoved) await showWorld();
  else if ($("show-3d").checked && !page.world) await showSurface(true);
}

/** The node editor's thumbnails show the view's world (seed, offset, size, levels): where a
 *  frame changed it, they are drawn again (the editor redraws them on its own edits). */
function refreshThumbnailsOfWorld() {
  if (!page.editor || page.spec.graph === undefined) return;
  const world = specText({ ...page.spec, graph: undefined });
  if (page.thumbnailWorld !== undefined && world !== page.thumbnailWorld) page.editor.refreshThumbnails();
  page.thumbnailWorld = world;
}

/** Draws the current view in 3D (heights and analytic normals from the wasm twin); an image
 *  without a surface (1D, or kinds without derivatives) says why in the error line. */
async function showSurface(keepCamera) {
  try {
    if (!view3d) {
      const { View3D } = await import("./view3d.js");
      view3d = new View3D($("view3d"));
    }
    const s = surface(currentSpecText({ backend: "cpu" }), SURFACE_SIDE);
    const scale = Number($("height-scale").value);
    const tiled = page.spec.tile === true;
    page.surface = view3d.show(s, scale, keepCamera, page.view.rgba(), page.view.width, tiled);
    s.free();
    // A volume (a 3D or 4D kind or graph, caves) shows as the heightmap of its z slice.
    const volume = specDims() >= 3;
    $("view3d-note").hidden = !volume;
    $("view3d-note").textContent = volume
      ? `The heights of the slice z = ${page.spec.offset?.[2] ?? 0} of this ${specDims()}D noise; "animate z" moves the slice.`
      : "";
    document.body.dataset.surfaces = String(Number(document.body.dataset.surfaces ?? 0) + 1);
  } catch (e) {
    showError(e);
  }
}

/** The rendered spec (every field the render used) becomes the state, without `backend`. */
function adoptRendered(view) {
  const rendered = parseSpec(view.spec);
  delete rendered.backend;
  if (page.spec.graph !== undefined) rendered.graph = page.spec.graph;
  page.spec = rendered;
  page.good = structuredClone(rendered);
  fillControls();
}

function paint(view) {
  const canvas = $("image");
  canvas.width = view.width;
  canvas.height = Math.max(view.height, view.height === 1 ? 64 : 1);
  const rgba = view.rgba();
  const image = new ImageData(view.width, 1);
  if (view.height === 1) {
    // 1D noise: the row repeated down the canvas; the profile below plots it.
    image.data.set(rgba);
    for (let y = 0; y < canvas.height; y++) canvas.getContext("2d").putImageData(image, 0, y);
  } else {
    canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer), view.width, view.height), 0, 0);
  }
  const [min, max, mean] = view.stats();
  $("stat-min").textContent = min.toPrecision(7);
  $("stat-max").textContent = max.toPrecision(7);
  $("stat-mean").textContent = mean.toPrecision(7);
  $("stat-bound").textContent = `${view.bound.toExponential(2)}`;
  $("stat-bound").title = view.bound_reason;
  $("stat-twin").textContent = "not checked";
  const range = view.range();
  drawHistogram($("histogram"), view.histogram(64), range);
  drawProfileOf(view, range);
}

function drawProfileOf(view, range) {
  const w = view.width;
  const h = view.height;
  const line = page.line ?? [[0, Math.floor(h / 2)], [w - 1, Math.floor(h / 2)]];
  drawProfile($("profile"), sampleLine(page.values, w, h, line[0], line[1]), range);
  const overlay = $("overlay");
  overlay.width = w;
  overlay.height = h === 1 ? 64 : h;
  const g = overlay.getContext("2d");
  g.strokeStyle = "#f0c060";
  g.lineWidth = Math.max(1, w / 512);
  g.beginPath();
  const ends = line.map(([x, y]) => [x + 0.5, (h === 1 ? 32 : y) + 0.5]);
  g.moveTo(...ends[0]);
  g.lineTo(...ends[1]);
  g.stroke();
  // Its ends named, as the profile's caption names them.
  g.fillStyle = "#f0c060";
  g.font = `${Math.max(11, Math.round(w / 40))}px sans-serif`;
  g.textBaseline = "bottom";
  g.fillText("A", Math.min(ends[0][0] + 2, w - 12), ends[0][1] - 2);
  g.fillText("B", Math.max(ends[1][0] - 12, 0), ends[1][1] - 2);
  $("profile-label").textContent = `the values along the orange line on the image, from A (${line[0].join(", ")}) to B (${line[1].join(", ")}); shift-drag on the image to draw another`;
  overlay.setAttribute("aria-hidden", "false");
  overlay.setAttribute("role", "img");
  overlay.setAttribute("aria-label", `the profile's line, from texel (${line[0].join(", ")}) to (${line[1].join(", ")})`);
}

function showError(e) {
  $("error").hidden = !e;
  $("error").textContent = e ? String(e.message ?? e) : "";
  document.body.dataset.error = e ? String(e.message ?? e) : "";
}

function kindMeta() {
  return page.meta.kinds.find((k) => k.name === page.spec.kind) ?? page.meta.kinds[0];
}

function buildControls() {
  setOptions($("kind"), page.meta.kinds.map((k) => k.name));
  setOptions($("fractal"), page.meta.fractals);
  setOptions($("lattice"), page.meta.lattices);
  setOptions($("colormap"), [...page.meta.colormaps, "stops…"]);
  setOptions($("preset"), ["", ...Object.keys(page.meta.presets)]);
  $("fractal-params").replaceChildren(...page.meta.fractal_params.map((p) => paramInput(p, setParam)));
  wireControls();
}

/** Kind parameters (and the offsets) are rebuilt when the kind or dims change. */
function buildKindControls() {
  const kind = kindMeta();
  const holder = $("kind-params");
  if (holder.dataset.kind !== kind.name) {
    holder.dataset.kind = kind.name;
    holder.replaceChildren(...kind.params.map((p) => paramInput(p, setParam)));
  }
  const dims = [];
  for (let d = kind.min_dims; d <= kind.max_dims; d++) dims.push(d);
  setOptions($("dims"), dims, page.spec.dims);
  $("tile-label").hidden = !kind.tiles;
  const axes = page.spec.graph === undefined ? page.spec.dims : graphDims();
  const offsets = $("offsets");
  if (offsets.children.length !== axes) {
    offsets.replaceChildren(...AXES.slice(0, axes).map((a, i) => {
      const label = document.createElement("label");
      label.title = "texels from the origin (exact: any f64)";
      label.innerHTML = `<span>offset ${a}</span><input id="offset-${a}" type="text" inputmode="decimal">`;
      label.querySelector("input").addEventListener("change", (ev) => setOffset(i, ev.target.value));
      return label;
    }));
  }
}

/** The dimensions of the noise shown: the flat spec's, or the graph's. */
function specDims() {
  return page.spec.graph?.dims ?? page.spec.dims ?? 2;
}

function graphDims() {
  return (page.spec.offset ?? [0, 0]).length;
}

/** Shows the state in the controls; `force` also overwrites the input being typed in. */
function fillControls(force = false) {
  const s = page.spec;
  if (s.graph === undefined) {
    $("kind").value = s.kind;
    buildKindControls();
    for (const input of document.querySelectorAll("[data-param]")) {
      if (s[input.dataset.param] !== undefined) showValue(input, s[input.dataset.param], force);
    }
    $("fractal").value = s.fractal;
    $("fractal-params").hidden = s.fractal === "none";
    $("tile").checked = Boolean(s.tile);
    $("channels").value = s.channels ?? "value";
    $("strength-label").hidden = s.channels !== "normal";
    $("levels").hidden = s.channels === "normal";
    showValue($("normal_strength"), s.normal_strength ?? 8, force);
  } else {
    buildKindControls();
  }
  $("animate-label").hidden = specDims() < 3;
  // A graph without a world seed renders with its own: the field shows the seed in use.
  showValue($("seed"), s.seed ?? s.graph?.seed ?? 0, force);
  $("lattice").value = s.lattice ?? page.meta.lattice_default;
  (s.offset ?? []).forEach((v, i) => showValue($(`offset-${AXES[i]}`), v, force));
  const named = page.meta.colormaps.includes(s.colormap ?? "gray");
  $("colormap").value = named ? (s.colormap ?? "gray") : "stops…";
  $("stops").hidden = named;
  if (!named) showValue($("stops"), s.colormap, force);
  showValue($("range"), s.range ? s.range.join(",") : "", force);
}

function setParam(p, text) {
  // An edited input that is removed (the kind changed) reports its change as it loses focus.
  const current = [...kindMeta().params, ...page.meta.fractal_params];
  if (page.spec.graph !== undefined || !current.includes(p)) return;
  // A refused value stays in its field with the reason beside it; the image keeps the last
  // state that rendered. A value the library refuses when rendering is shown the same way.
  const input = $(`param-${p.name}`);
  // The browser reports a field's change again when it loses focus; a text already refused
  // (its reason beside it) is not refused twice.
  if (input?.dataset.refused === text) return;
  try {
    page.spec[p.name] = paramValue(p, text);
  } catch (e) {
    if (input) input.dataset.refused = text;
    showFieldError(input, e.message);
    showError(e);
    return;
  }
  if (input) delete input.dataset.refused;
  showFieldError(input, null);
  page.editedField = input;
  render();
}

function setOffset(axis, text) {
  const v = Number(text.trim());
  if (text.trim() === "" || !Number.isFinite(v)) {
    showError(new Error(`offset: ${JSON.stringify(text)} is not a number`));
    return;
  }
  page.spec.offset[axis] = v;
  render();
}

/** A change of kind keeps the world (seed, offset, size, lattice, levels) and the fractal sum,
 *  and drops what belonged to the old kind, as `--spec old.json --kind new` does. */
function setKind(name) {
  const keep = ["dims", "seed", "offset", "size", "fractal", "octaves", "lacunarity", "persistence", "lattice", "colormap", "range", "channels", "normal_strength"];
  const next = { kind: name };
  for (const k of keep) if (page.spec[k] !== undefined) next[k] = page.spec[k];
  const kind = page.meta.kinds.find((k) => k.name === name);
  next.dims = Math.min(kind.max_dims, Math.max(kind.min_dims, next.dims ?? 2));
  next.offset = resize(next.offset ?? [], next.dims);
  next.size = sizeFor(next.dims);
  page.spec = next;
  render();
}

function resize(offset, dims) {
  return Array.from({ length: dims }, (_, i) => offset[i] ?? 0);
}

function sizeFor(dims) {
  const side = Number($("size").value);
  return dims === 1 ? [side] : [side, side];
}

function wireSurface() {
  $("show-3d").addEventListener("change", async () => {
    const on = $("show-3d").checked;
    $("view3d").hidden = !on;
    $("height-label").hidden = !on;
    $("world-label").hidden = !on;
    if (!on && $("world-3d").checked) {
      $("world-3d").checked = false;
      await showWorld();
    }
    if (on) await showSurface(false);
  });
  $("world-3d").addEventListener("change", () => showWorld());
  $("height-scale").addEventListener("input", () => {
    $("height-value").textContent = $("height-scale").value;
    if (page.world) showWorld();
    else showSurface(true);
  });
  $("animate-z").addEventListener("change", () => animateZ());
}

/** The endless world (world3d.js) in the 3D view while "endless world" is ticked: chunks of
 *  the current spec's world on the SIMD lanes in wasm, coloured by its levels; a new spec (a
 *  frame of another world) starts it again. */
async function showWorld() {
  page.world?.stop();
  page.worldWorkers?.done();
  [page.world, page.worldWorkers, page.worldText] = [null, null, null];
  if (!$("world-3d").checked) {
    if ($("show-3d").checked) await showSurface(false);
    return;
  }
  if (!view3d) await showSurface(false);
  const { WorldView, CHUNK, BLOCK } = await import("./world3d.js");
  const text = currentSpecText({ backend: "cpu" });
  page.worldText = text;
  // The chunks render on web workers (the page's own on the CPU lanes), the page builds meshes.
  const workers = await laneWorkersFor(page.previewer);
  if (page.worldText !== text || !$("world-3d").checked) return workers.done(); // overtaken
  [page.worldWorkers, page.worldEngine] = [workers, page.previewer];
  const ask = (message) => workers.pool.ask(null, message);
  // A 3D or 4D spec: the iso-surface at the middle of the view's values (caves: between open
  // 0 and rock 1), block by block (the spec moved to each block, (BLOCK + 2)^3 texels: see the
  // wasm iso_mesh).
  const [lo, hi] = page.view.stats();
  const level = Number(((lo + hi) / 2).toPrecision(3));
  const base = resize(page.spec.offset ?? [], specDims());
  const isoOf = (bx, by, bz) => {
    const offset = base.map((o, i) => o + ([bx, by, bz][i] ?? 0) * BLOCK);
    const side = BLOCK + 2;
    const spec = currentSpecText({ backend: "cpu", channels: undefined, normal_strength: undefined, size: [side, side, side], offset });
    return ask({ job: "iso", spec, level });
  };
  const levels = currentSpecText({ backend: "cpu", channels: undefined, normal_strength: undefined, size: [CHUNK + 1, CHUNK + 1] });
  page.world = new WorldView(view3d, {
    chunkOf: (cx, cy, lod) => ask({ job: "chunk", spec: text, cx, cy, size: CHUNK, lod }),
    colorsOf: (heights) => {
      const view = view_of_lanes(levels, heights);
      const rgba = view.rgba();
      view.free();
      return rgba;
    },
    scale: Number($("height-scale").value),
    isoOf: specDims() >= 3 ? isoOf : null,
    inFlight: 2 * workers.pool.workers.length,
  });
  page.world.level = level;
  $("view3d-note").hidden = specDims() < 3;
  $("view3d-note").textContent = specDims() >= 3
    ? `The surface where this ${specDims()}D noise crosses ${level}, the middle of the view's values, in blocks of ${BLOCK}^3 texels around the camera (z up).`
    : "";
}

/** While "animate z" is ticked, the slice moves one texel along z a frame (exact: the offset is
 *  f64 texels), in 2D and 3D alike. */
async function animateZ() {
  while ($("animate-z").checked && specDims() >= 3) {
    page.spec.offset[2] = (page.spec.offset[2] ?? 0) + 1;
    fillControls(true);
    await render();
    await new Promise((next) => requestAnimationFrame(next));
  }
}

function wireControls() {
  wireSurface();
  $("engine").addEventListener("change", async () => {
    const url = new URL(location.href);
    url.searchParams.delete("twin");
    url.searchParams.set("engine", $("engine").value);
    history.replaceState(null, "", url);
    // The engine in use finishes its frame before it goes; opening the next (compiling its
    // pipelines, starting its workers) can take seconds, so the busy sign shows meanwhile.
    while (page.rendering) await new Promise((later) => setTimeout(later, 20));
    showBusy(true);
    $("busy").textContent = "switching engine…";
    try {
      await openEngine($("engine").value);
    } finally {
      $("busy").textContent = "rendering…";
      showBusy(false);
    }
    await render();
    page.autoTimed = timeEngines();
  });
  $("mode").addEventListener("change", () => setMode($("mode").value));
  $("kind").addEventListener("change", () => setKind($("kind").value));
  $("dims").addEventListener("change", () => {
    page.spec.dims = Number($("dims").value);
    page.spec.offset = resize(page.spec.offset ?? [], page.spec.dims);
    page.spec.size = sizeFor(page.spec.dims);
    render();
  });
  $("fractal").addEventListener("change", () => {
    const from = page.spec.fractal ?? "none";
    page.spec.fractal = $("fractal").value;
    // One octave of a sum is the bare noise: picking a sum from none brings octaves with it.
    if (from === "none" && page.spec.fractal !== "none" && (page.spec.octaves ?? 1) === 1) {
      page.spec.octaves = FRACTAL_OCTAVES;
    }
    render();
  });
  $("tile").addEventListener("change", () => {
    page.spec.tile = $("tile").checked;
    render();
  });
  $("channels").addEventListener("change", () => {
    if ($("channels").value === "normal") {
      // Levels apply to values only (the tool refuses them beside a normal map).
      page.spec.channels = "normal";
      delete page.spec.colormap;
      delete page.spec.range;
    } else {
      delete page.spec.channels;
    }
    delete page.spec.normal_strength;
    render();
  });
  $("normal_strength").addEventListener("change", () => {
    const v = Number($("normal_strength").value.trim());
    if (!(v > 0 && Number.isFinite(v))) {
      showError(new Error(`normal_strength: ${JSON.stringify($("normal_strength").value)} is not a number > 0`));
      return;
    }
    page.spec.normal_strength = v;
    render();
  });
  $("seed").addEventListener("change", () => setSeed($("seed").value));
  $("lattice").addEventListener("change", () => {
    page.spec.lattice = $("lattice").value;
    render();
  });
  $("size").addEventListener("change", () => {
    page.spec.size = sizeFor(page.spec.graph === undefined ? page.spec.dims : 2);
    page.line = null;
    render();
  });
  $("colormap").addEventListener("change", () => setColormap($("colormap").value));
  $("stops").addEventListener("change", () => setColormap($("stops").value));
  $("range").addEventListener("change", () => setRange($("range").value));
  $("fit").addEventListener("click", fitRange);
  $("home").addEventListener("click", () => {
    page.spec.offset = page.spec.offset.map(() => 0);
    render();
  });
  $("preset").addEventListener("change", () => {
    const text = page.meta.presets[$("preset").value];
    if (text) $("graph").value = text;
    applyGraph({ another: true });
  });
  $("apply-graph").addEventListener("click", () => applyGraph());
  $("load-graph").addEventListener("change", loadGraphFile);
  $("export-png").addEventListener("click", exportPng);
  $("export-spec").addEventListener("click", exportSpec);
  $("export-large").addEventListener("click", exportLargeFile);
  $("export-cancel").addEventListener("click", () => page.exporting?.abort());
  $("check-twin").addEventListener("click", checkTwin);
  wireNavigation();
}

function setSeed(text) {
  const t = text.trim();
  if (!/^\d+$/.test(t) || BigInt(t) > 18446744073709551615n) {
    showError(new Error(`seed: ${JSON.stringify(t)} is not a whole number in 0..=18446744073709551615`));
    return;
  }
  page.spec.seed = BigInt(t) > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(t) : Number(t);
  render();
}

function setColormap(name) {
  $("stops").hidden = name !== "stops…";
  if (name === "stops…") return;
  if (name === "gray") delete page.spec.colormap;
  else page.spec.colormap = name;
  render();
}

function setRange(text) {
  const t = text.trim();
  if (t === "") {
    delete page.spec.range;
  } else {
    const parts = t.split(",").map((p) => Number(p.trim()));
    if (parts.length !== 2 || !parts.every(Number.isFinite)) {
      showError(new Error(`range: give lo,hi (two numbers), got ${JSON.stringify(t)}`));
      return;
    }
    page.spec.range = parts;
  }
  render();
}

function fitRange() {
  if (!page.view) return;
  const [min, max] = page.view.stats();
  if (min < max) {
    page.spec.range = [min, max];
    render();
  }
}

/** Switches between one kind and a graph; each mode comes back as it was left. */
function setMode(mode) {
  if (mode === GRAPH) {
    if (page.spec.graph === undefined) page.flatSpec = structuredClone(page.spec);
    if (!$("graph").value.trim()) $("graph").value = Object.values(page.meta.presets)[0];
    applyGraph();
  } else if (page.flatSpec !== undefined) {
    page.spec = structuredClone(page.flatSpec);
    render();
  } else {
    page.spec = { ...structuredClone(FIRST_VIEW), size: sizeFor(2) };
    render();
  }
  showMode();
}

function showMode() {
  const graph = page.spec.graph !== undefined || $("mode").value === GRAPH;
  $("noise-fields").hidden = graph;
  $("graph-fields").hidden = !graph;
  $("editor-panel").hidden = !graph;
  if (graph) syncEditor();
  $("nav-hint").textContent = graph
    ? "Drag or arrow keys to pan, wheel or +/- to zoom (a scale node view_zoom above the output); shift-drag draws the profile's line."
    : "Drag or arrow keys to pan, wheel or +/- to zoom; shift-drag draws the profile's line.";
}

/** A graph spec: the graph, and the world and levels fields of the flat spec; `another` graph
 *  (a preset, a file) keeps the colormap but not the range, which was the last graph's. */
function applyGraph({ another = false } = {}) {
  const text = $("graph").value;
  let graph;
  try {
    graph = parseSpec(text);
  } catch (e) {
    showError(new Error(`graph: ${e.message}`));
    return;
  }
  const dims = graph.dims ?? 2;
  const next = { graph, size: sizeFor(Math.min(dims, 2)), offset: resize(page.spec.offset ?? [], dims) };
  for (const k of another ? ["colormap"] : ["colormap", "range"]) if (page.spec[k] !== undefined) next[k] = page.spec[k];
  page.graphText = text;
  page.spec = next;
  // The preset menu names the graph shown when it is one of them.
  $("preset").value = Object.entries(page.meta.presets).find(([, t]) => t === text)?.[0] ?? "";
  $("mode").value = GRAPH;
  showMode();
  render();
}

/** A graph from a file: a bare graph, or a spec file with one (its world and levels too). */
async function loadGraphFile() {
  const chosen = $("load-graph").files?.[0];
  $("load-graph-name").hidden = !chosen;
  $("load-graph-name").textContent = chosen ? `loaded ${chosen.name}` : "";
  const file = $("load-graph").files[0];
  if (!file) return;
  const text = await file.text();
  $("load-graph").value = "";
  let parsed;
  try {
    parsed = parseSpec(text);
  } catch (e) {
    showError(new Error(`${file.name}: ${e.message}`));
    return;
  }
  if (parsed.graph !== undefined) {
    adoptSpecText(text);
    render();
  } else {
    $("graph").value = text;
    applyGraph({ another: true });
  }
}

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

/** The view rendered by the CPU twin and mapped by the tool's own levels: the PNG that
 *  `gpu-noise render --spec view.json -o view.png` writes, pixel for pixel. */
function exportPng() {
  if ((page.spec.dims ?? 2) === 1 && page.spec.graph === undefined) {
    showError(new Error("export: the tool plots 1D noise as a chart; export the spec and render it with the tool"));
    return;
  }
  const view = render_twin_view(currentSpecText());
  const canvas = document.createElement("canvas");
  canvas.width = view.width;
  canvas.height = view.height;
  canvas.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(view.rgba().buffer), view.width, view.height), 0, 0);
  view.free();
  canvas.toBlob((blob) => download(`${exportName()}.png`, blob), "image/png");
}

/** The current spec at the export size (field `export-size`), rendered in bands by web
 *  workers and written as it goes (export.js), with progress and a cancel button; one export
 *  at a time. A bad size names the field and the range, and nothing is written. */
async function exportLargeFile() {
  const field = $("export-size");
  const size = exportSize(field.value);
  if (size instanceof Error) {
    showFieldError(field, size.message);
    showError(size);
    return;
  }
  showFieldError(field, null);
  const format = $("export-format").value;
  const control = new AbortController();
  page.exporting = control;
  const [button, cancel, progress, status] = ["export-large", "export-cancel", "export-progress", "export-status"].map($);
  [button.disabled, cancel.hidden, progress.hidden, progress.value] = [true, false, false, 0];
  status.textContent = "starting the workers…";
  let workers = null;
  try {
    workers = await laneWorkersFor(page.previewer);
    const name = `${exportName().replace(/-\d+x\d+/, "")}-${size.join("x")}`;
    const framing = $("export-framing").value;
    const blob = await exportLarge((s) => largeExportText(size, framing, s), size, format, {
      workers: workers.pool,
      signal: control.signal,
      onProgress: ({ rows, height, seconds }) => {
        progress.value = rows / height;
        status.textContent = `${rows} of ${height} rows, ${seconds.toFixed(1)} s`;
      },
    });
    download(`${name}.${format}`, blob);
    const spec = $("export-large-spec");
    URL.revokeObjectURL(spec.href);
    spec.href = URL.createObjectURL(new Blob([`${largeExportText(size, framing, size, format === "png")}\n`], { type: "application/json" }));
    spec.download = `${name}.json`;
    spec.hidden = false;
    status.textContent = `${size.join("x")} ${format}: ${(blob.size / 1048576).toFixed(1)} MiB`;
  } catch (e) {
    status.textContent = String(e.message ?? e);
    showError(e);
  } finally {
    workers?.done();
    page.exporting = null;
    [button.disabled, cancel.hidden, progress.hidden] = [false, true, true];
  }
}

/** The spec of a large export of `size` texels at `at` (its size, or a band's): with framing
 *  "world", the page's spec at that size (more of the world from the view's top-left corner);
 *  with "detail", the view itself in more texels: r = view width / export width view texels a
 *  texel, so a flat spec's frequency times r and every offset over r (f' o' = f o), a graph's
 *  root scale (the zoom node, added where missing) times r on x and y and those offsets over r.
 *  Without `levels`, no colormap or range (a raw export's spec). */
function largeExportText(size, framing, at, levels = true) {
  // Raw values hold no levels (the tool refuses a colormap or range for .f32).
  const bare = levels ? {} : { colormap: undefined, range: undefined };
  if (framing !== "detail") return currentSpecText({ size: at, ...bare });
  const r = (page.spec.size?.[0] ?? size[0]) / size[0];
  const flat = page.spec.graph === undefined;
  const offset = resize(page.spec.offset ?? [], specDims()).map((o, i) => (flat || i < 2 ? o / r : o));
  if (flat) return currentSpecText({ size: at, offset, frequency: page.spec.frequency * r, ...bare });
  const graph = parseSpec(page.graphText);
  const zoom = zoomNodeOf(graph);
  if (zoom === null) throw new Error(`export: the graph has a node "${ZOOM_NODE}" that is not a scale; rename it`);
  zoom.by = zoom.by.map((b, i) => (i < 2 ? b * r : b));
  return specText({ ...page.spec, size: at, offset, ...bare }, { graph: specText(graph) });
}

function exportSpec() {
  download(`${exportName()}.json`, new Blob([`${exportSpecText()}\n`], { type: "application/json" }));
}

/** The spec file the page exports: what the tool renders, with a graph's editor layout
 *  (`layout`: the tool reads and ignores it; loading the file brings the layout back). */
function exportSpecText() {
  const layout = layoutOfView();
  return currentSpecText({ backend: "cpu", ...(layout ? { layout } : {}) });
}

/** A download's name from what it shows: `perlin-fbm6-seed7-512x512`, `graph-terrain-seed0-512x512`. */
function exportName() {
  const s = page.spec;
  const what = s.graph !== undefined
    ? ["graph", $("preset").value || "custom"]
    : [s.kind, s.fractal && s.fractal !== "none" ? `${s.fractal}${s.octaves ?? 1}` : null];
  const parts = [...what, `seed${s.seed ?? 0}`, (s.size ?? []).join("x"), s.channels === "normal" ? "normal" : null];
  return parts.filter(Boolean).join("-").replace(/[^A-Za-z0-9._-]+/g, "_");
}

/** Renders the view with the CPU twin and shows the largest difference against the bound. */
function checkTwin() {
  if (!page.view) return;
  const twin = render_twin_view(currentSpecText());
  const diff = page.view.max_difference(twin);
  twin.free();
  const ok = diff <= page.view.bound;
  $("stat-twin").textContent = `max |Δ| ${diff.toExponential(2)} ${ok ? "≤" : ">"} bound: ${ok ? "PASS" : "FAIL"}`;
}

/** Drag pans, the wheel zooms about the cursor (exact: offsets are f64 texels, CONVENTIONS §1),
 *  shift-drag draws the profile's line. */
function wireNavigation() {
  const stage = $("stage");
  let drag = null;
  const texel = (ev) => {
    const r = stage.getBoundingClientRect();
    const c = $("image");
    return [((ev.clientX - r.left) / r.width) * c.width, ((ev.clientY - r.top) / r.height) * c.height];
  };
  stage.addEventListener("pointerdown", (ev) => {
    stage.setPointerCapture(ev.pointerId);
    drag = { at: texel(ev), line: ev.shiftKey };
  });
  stage.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const at = texel(ev);
    if (drag.line) {
      page.line = [drag.at.map(Math.floor), at.map(Math.floor)];
      if (page.view) drawProfileOf(page.view, page.view.range());
      return;
    }
    const dx = Math.round(at[0] - drag.at[0]);
    const dy = Math.round(at[1] - drag.at[1]);
    if (dx === 0 && dy === 0) return;
    drag.at = [drag.at[0] + dx, drag.at[1] + dy];
    page.spec.offset[0] -= dx;
    if (page.spec.offset.length > 1 && $("image").height > 1 && page.view?.height > 1) page.spec.offset[1] -= dy;
    render();
  });
  stage.addEventListener("pointerup", () => (drag = null));
  // The keyboard does what the mouse does: arrows pan by an eighth of the view, + and - zoom
  // about its center.
  stage.addEventListener("keydown", (ev) => {
    const c = $("image");
    const step = Math.max(1, Math.round(c.width / 8));
    const pan = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[ev.key];
    if (pan) {
      ev.preventDefault();
      page.spec.offset[0] += pan[0];
      if (page.spec.offset.length > 1 && page.view?.height > 1) page.spec.offset[1] += pan[1];
      render();
    } else if (ev.key === "+" || ev.key === "=" || ev.key === "-") {
      ev.preventDefault();
      zoom([c.width / 2, c.height / 2], ev.key === "-" ? 1.25 : 0.8);
    }
  });
  stage.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    zoom(texel(ev), ev.deltaY > 0 ? 1.25 : 0.8);
  }, { passive: false });
}

/** Scales the frequency by `factor` keeping the point under `at` in place:
 *  f (o + c) = f' (o' + c), so o' = (f / f') (o + c) - c. */
function zoom(at, factor) {
  if (page.spec.graph !== undefined) return zoomGraph(at, factor);
  const kind = kindMeta();
  const fp = kind.params.find((p) => p.name === "frequency");
  const f = page.spec.frequency;
  // Twelve significant digits: repeated factors of 0.8 would leave 0.0026214400000000001.
  const next = Number(Math.min(fp.max, Math.max(1e-12, f * factor)).toPrecision(12));
  if (next === f) return;
  page.spec.frequency = next;
  page.spec.offset = page.spec.offset.map((o, i) => (i < 2 && (i === 0 || page.view.height > 1) ? (f / next) * (o + at[i]) - at[i] : o));
  render();
}

/** The node a graph zooms by: a `scale` above the graph's output (CONVENTIONS §13), as exact
 *  as the flat zoom, since every domain transform above a noise folds into its frame. */
const ZOOM_NODE = "view_zoom";

/** A graph's zoom: the root scale s (the graph samples s p) times `factor`, keeping the point
 *  under `at` in place as `zoom` does: s (o + c) = s' (o' + c). */
function zoomGraph(at, factor) {
  const graph = page.spec.graph;
  const node = zoomNodeOf(graph);
  if (node === null) return;
  const s = node.by[0];
  const next = Number((s * factor).toPrecision(12));
  if (!(next > 0) || next === s) return;
  node.by = node.by.map((b, i) => (i < 2 ? next : b));
  page.spec.offset = page.spec.offset.map((o, i) => (i < 2 && (i === 0 || page.view.height > 1) ? (s / next) * (o + at[i]) - at[i] : o));
  page.graphText = specText(graph);
  $("graph").value = page.graphText;
  syncEditor();
  render();
}

/** `graph`'s zoom node, a scale by 1 added above its output where it has none; null, with the
 *  error shown, where a node of another type holds the name. */
function zoomNodeOf(graph) {
  let node = graph.nodes[ZOOM_NODE];
  if (node !== undefined && node.type !== "scale") {
    showError(new Error(`zoom: the graph has a node "${ZOOM_NODE}" of its own; rename it to zoom`));
    return null;
  }
  if (node === undefined) {
    node = { type: "scale", source: graph.output, by: Array.from({ length: graph.dims ?? 2 }, () => 1) };
    graph.nodes[ZOOM_NODE] = node;
    graph.output = ZOOM_NODE;
  }
  return node;
}

/** The node editor (editor.js) under the view in graph mode; it and the JSON text show the
 *  same graph, whichever was edited last. */
function buildEditor() {
  const nodes = page.meta.nodes;
  const categories = [...new Set(nodes.map((t) => t.category))];
  $("node-type").innerHTML = categories.map((c) => `<optgroup label="${c}">${nodes.filter((t) => t.category === c)
    .map((t) => `<option value="${t.name}" title="${t.doc.replace(/"/g, "&quot;")}">${t.name}</option>`).join("")}</optgroup>`).join("");
  page.editor = new NodeEditor($("editor"), nodes, { onChange: editorChanged, thumbnail: nodeThumbnail });
  // A move changes no value, so no frame: the address takes the new layout in place.
  page.editor.onMoved = () => specToAddress(currentSpecText(), false, layoutOfView());
  const act = (id, f) => $(id).addEventListener("click", () => f());
  act("add-node", () => page.editor.add($("node-type").value));
  act("duplicate-node", () => page.editor.duplicate());
  act("delete-node", () => page.editor.selectedName() && page.editor.remove(page.editor.selectedName()));
  act("copy-node", () => page.editor.copy());
  // The button reads the system clipboard where the browser lets the page (else the editor's
  // own); Ctrl+V over the canvas always can, through the paste event.
  act("paste-node", async () => {
    const text = await navigator.clipboard?.readText?.().catch(() => null);
    pasteGraph(text || undefined);
  });
  act("convert-node", () => {
    const name = page.editor.selectedName();
    if (name) page.editor.convert(name, $("node-type").value);
  });
  $("editor").addEventListener("copy", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    const text = page.editor.copy();
    if (text === null) return;
    e.clipboardData.setData("text/plain", text);
    e.preventDefault();
  });
  $("editor").addEventListener("paste", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
    pasteGraph(e.clipboardData.getData("text/plain"));
    e.preventDefault();
  });
  act("clear-graph", () => page.editor.clear(2));
  act("fit-view", () => page.editor.fitToView());
  act("undo", () => page.editor.undo());
  act("redo", () => page.editor.redo());
  act("output-node", () => page.editor.selectedName() && page.editor.setOutput(page.editor.selectedName()));
  $("editor").addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || ["INPUT", "SELECT"].includes(e.target.tagName)) return;
    const keys = { z: e.shiftKey ? "redo" : "undo", y: "redo", d: "duplicate" };
    const what = keys[e.key.toLowerCase()];
    if (!what) return;
    e.preventDefault();
    page.editor[what]();
  });
}

/** Pastes a graph's JSON (a subtree copied here or in another graph or tab) into the editor;
 *  a text that is no graph says why. */
function pasteGraph(text) {
  try {
    page.editor.paste(text);
  } catch (e) {
    showError(e);
  }
}

/** The node editor's positions where a graph is shown (they travel in the address, so a shared
 *  link opens with the same layout), else null. */
function layoutOfView() {
  return page.spec.graph !== undefined && page.editor ? page.editor.positions() : null;
}

/** Loads the graph text into the editor where the editor does not show it yet. */
function syncEditor() {
  if (!page.graphText || page.graphText === page.editorText) return;
  try {
    page.editor.loadResuming(parseSpec(page.graphText), page.fileLayout ?? layoutFromAddress());
    page.fileLayout = null;
    page.editorText = page.graphText;
  } catch (e) {
    showError(new Error(`node editor: ${e.message}`));
  }
}

/** An edit on the canvas: the JSON text follows, and the graph renders. */
function editorChanged(graph) {
  const text = specText(graph);
  page.editorText = text;
  $("graph").value = text;
  applyGraph();
}

/** A node's thumbnail: `graph`'s output over the whole view at up to THUMBNAIL_SIDE texels
 *  across, on the CPU twin, in the page's levels: every k-th texel of the view, k whole (a
 *  scale node by k above the output: k (o' + t) = o + k t, so o' = o / k), with the view's
 *  zoom (CONVENTIONS §13) where the node lies below it. The node's preview settings: `scale`
 *  view widths about the thumbnail's centre texel T/2 (T texels across; the view's centre to
 *  within k texels): every f = k scale-th texel, f (o' + T/2) = o + k T/2, so o' = (o + k
 *  T/2) / f - T/2 (at scale 1, o / k); and `seed` in place of the page's. */
function nodeThumbnail(graph, { scale = 1, seed } = {}) {
  const start = performance.now();
  const dims = graph.dims ?? 2;
  const [width, height = 1] = page.spec.size ?? [THUMBNAIL_SIDE, THUMBNAIL_SIDE];
  const k = Math.ceil(Math.max(width, height) / THUMBNAIL_SIDE);
  const f = k * scale;
  const zoom = graph.output === ZOOM_NODE ? undefined : page.spec.graph?.nodes?.[ZOOM_NODE]?.by;
  const by = Array.from({ length: dims }, (_, i) => (i < 2 ? f : 1) * (zoom?.[i] ?? 1));
  let name = "thumbnail_view";
  while (graph.nodes[name]) name += "_";
  const nodes = { ...graph.nodes, [name]: { type: "scale", source: graph.output, by } };
  const size = [Math.ceil(width / k), Math.ceil(height / k)].slice(0, Math.min(dims, 2));
  const offset = resize(page.spec.offset ?? [], dims).map((o, i) => (i < 2 ? (o + (k * size[i]) / 2) / f - size[i] / 2 : o));
  const spec = { ...page.spec, graph: { ...graph, nodes, output: name }, size, offset };
  if (seed !== undefined) spec.seed = seed;
  const view = render_twin_view(specText(spec));
  const shot = { rgba: view.rgba(), width: view.width, height: view.height, ms: performance.now() - start };
  view.free();
  return shot;
}

window.gpuNoise = {
  ready: false,
  view3d: () => view3d,
  world: () => page.world && { level: page.world.level, settled: page.world.settled, chunks: page.world.chunks(), errors: page.world.errors, camera: page.world.view3d.camera.position.toArray() },
  page,
  editor: () => page.editor,
  specText: () => currentSpecText(),
  exportSpecText: () => exportSpecText(),
  values: () => Array.from(page.values),
  bound: () => page.view.bound,
  onGpu: () => page.view.on_gpu,
  surface: () => page.surface && {
    columns: page.surface.columns,
    rows: page.surface.rows,
    stride: page.surface.stride,
    heights: Array.from(page.surface.heights),
    normals: Array.from(page.surface.normals),
    copies: page.surface.copies,
  },
};

main().catch((e) => {
  showError(e);
  document.body.dataset.fatal = String(e.message ?? e);
});
