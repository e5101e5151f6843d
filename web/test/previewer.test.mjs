// The previewer in a real browser: Debian's headless Chromium (WebGPU through SwiftShader),
// driven by playwright-core. Parameters are set through the page's controls; the values it
// renders are checked against the CPU twin of the `gpu-noise` tool (target/release, built by
// `cargo build --release`) within the library's stated bound; an exported spec and PNG are
// rendered again by the tool and compared pixel for pixel. Run: `node --test web/test/`
// after `bash web/build.sh`. SCREENSHOT=path saves the README's picture.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { changeControl, editorRendered, openPage as openAt, servePage, setControl, thumbnailsDrawn, tool, web } from "./harness.mjs";

const served = servePage();
const scratch = served.scratch;

/** The page in Chromium (see harness.mjs), at the served origin unless `address` is given. */
function openPage(webgpu, address = served.origin, engine = "webgpu") {
  return openAt(webgpu, address, engine);
}

test("hidden controls stay hidden, picking fbm brings octaves, and a rejected value does not stick", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "simplex");
    assert.equal(await page.locator("#tile-label").isVisible(), false, "tile is offered for simplex");
    assert.equal(await page.locator("#strength-label").isVisible(), false, "strength shows without a normal map");
    await setControl(page, "#kind", "perlin");
    assert.equal(await page.locator("#tile-label").isVisible(), true, "tile is not offered for perlin");
    const ranges = await page.evaluate(() => [...document.querySelectorAll("label small")].map((e) => e.textContent));
    assert.ok(!ranges.some((r) => r.includes("e+308")), `a range shows f64's largest number: ${ranges}`);
    const spec = async () => JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    assert.deepEqual([(await spec()).fractal, (await spec()).octaves], ["fbm", 6], "the first view is not fBm");
    await setControl(page, "#param-octaves", 1);
    await setControl(page, "#fractal", "none");
    await setControl(page, "#fractal", "fbm");
    const octaves = (await spec()).octaves;
    assert.ok(octaves > 1, `fbm kept ${octaves} octave: the same image as none`);
    await changeControl(page, "#param-octaves", 40);
    const refused = await page.evaluate(() => document.body.dataset.error);
    assert.match(refused ?? "", /octaves/, "40 octaves were not refused");
    assert.equal((await spec()).octaves, octaves, "the refused octaves stayed in the spec");
    assert.equal(await page.locator("#param-octaves").inputValue(), "40", "the field keeps what was typed");
    // The next change renders (it used to report the octaves error again).
    await setControl(page, "#param-lacunarity", 3);
    assert.deepEqual([(await spec()).lacunarity, (await spec()).octaves], [3, octaves]);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("a refused value stays in its field with the reason beside it in the tool's words, and the image keeps the last valid state", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    const frames = () => page.evaluate(() => Number(document.body.dataset.frames));
    const before = { frames: await frames(), spec: await page.evaluate(() => window.gpuNoise.specText()) };
    await changeControl(page, "#param-octaves", "2.5");
    assert.equal(await page.locator("#param-octaves").inputValue(), "2.5");
    const message = await page.locator("#param-octaves-error").textContent();
    assert.equal(message, "octaves: must be a whole number in 1..=16, got 2.5");
    assert.equal(await page.locator("#param-octaves-error").isVisible(), true);
    assert.equal(await page.locator("#param-octaves").getAttribute("aria-invalid"), "true");
    assert.equal(await frames(), before.frames, "a refused value rendered a frame");
    assert.equal(await page.evaluate(() => window.gpuNoise.specText()), before.spec);
    // A number out of range says the range as the tool does; a good value clears the field.
    await changeControl(page, "#param-frequency", "0");
    assert.equal(await page.locator("#param-frequency-error").textContent(), "frequency: must be in (0, 1073741824], got 0");
    await setControl(page, "#param-octaves", 5);
    assert.equal(await page.locator("#param-octaves-error").isVisible(), false);
    assert.equal(JSON.parse(await page.evaluate(() => window.gpuNoise.specText())).octaves, 5);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("long renders show that they are busy, zoom keeps short numbers, downloads are named, everything has a name", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-spec")]);
    assert.match(download.suggestedFilename(), /^perlin-fbm6-seed\d+-256x256\.json$/);
    // Zooming in eight times: the frequency field shows a short number, not 0.0026214400000000001.
    for (let i = 0; i < 8; i++) {
      const frames = await page.evaluate(() => Number(document.body.dataset.frames));
      await page.locator("#stage").hover();
      await page.mouse.wheel(0, -100);
      await page.waitForFunction((n) => Number(document.body.dataset.frames) > n && !window.gpuNoise.page.rendering, frames);
    }
    // The keyboard pans and zooms too: the view takes focus, an arrow moves the offset.
    const before = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    await page.locator("#stage").focus();
    let frames = await page.evaluate(() => Number(document.body.dataset.frames));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => Number(document.body.dataset.frames) > n && !window.gpuNoise.page.rendering, frames);
    frames = await page.evaluate(() => Number(document.body.dataset.frames));
    await page.keyboard.press("+");
    await page.waitForFunction((n) => Number(document.body.dataset.frames) > n && !window.gpuNoise.page.rendering, frames);
    const after_ = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    assert.ok(after_.offset[0] !== before.offset[0] && after_.frequency < before.frequency, "the keyboard neither pans nor zooms");
    const frequency = await page.locator("#param-frequency").inputValue();
    assert.ok(frequency.length <= 14, `the frequency field reads ${frequency}`);
    // A render of seconds (Gabor at 1024^2 on the CPU) shows the busy sign, and it goes after.
    await setControl(page, "#kind", "gabor");
    await page.evaluate(() => {
      window.busySeen = false;
      new MutationObserver(() => { if (!document.getElementById("busy").hidden) window.busySeen = true; })
        .observe(document.getElementById("busy"), { attributes: true });
    });
    await setControl(page, "#size", 1024);
    assert.ok(await page.evaluate(() => window.busySeen), "no busy sign during a render of seconds");
    assert.equal(await page.locator("#busy").isVisible(), false, "the busy sign stayed");
    // Every canvas has a name or is hidden from assistive technology; the stops input too.
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("canvas, input")]
      .filter((e) => !e.hidden && !e.getAttribute("aria-label") && e.getAttribute("aria-hidden") !== "true" && !e.closest("label"))
      .map((e) => e.id));
    assert.deepEqual(unnamed, [], "controls without an accessible name");
    const contrast = await page.evaluate(() => {
      const rgb = (c) => c.match(/\d+/g).slice(0, 3).map(Number);
      const lum = ([r, g, b]) => [r, g, b].map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
      const fg = lum(rgb(getComputedStyle(document.querySelector("footer")).color));
      const bg = lum(rgb(getComputedStyle(document.body).backgroundColor));
      return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    });
    assert.ok(contrast >= 4.5, `the footer's contrast is ${contrast.toFixed(2)}:1`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

/** What the page shows: its spec, values, stated bound, and whether WebGPU or a normal map. */
function shownView(page) {
  return page.evaluate(() => ({
    text: window.gpuNoise.specText(),
    values: window.gpuNoise.values(),
    bound: window.gpuNoise.bound(),
    onGpu: window.gpuNoise.onGpu(),
    normals: window.gpuNoise.page.view.normals,
  }));
}

/** The tool's CPU twin for the page's spec: `gpu-noise render --spec ... --backend cpu`. */
function twinOf(specText, name) {
  const spec = path.join(scratch, `${name}.json`);
  const out = path.join(scratch, `${name}.f32`);
  // Raw values: the levels (colormap, range) apply to images only, and the tool says so.
  const { colormap, range, ...values } = JSON.parse(specText);
  fs.writeFileSync(spec, JSON.stringify(values));
  runTool(["render", "--quiet", "--spec", spec, "--backend", "cpu", "-o", out]);
  const bytes = fs.readFileSync(out);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

function runTool(args) {
  execFileSync(tool, args, { stdio: ["ignore", "pipe", "pipe"] });
}

function maxDifference(a, b) {
  assert.equal(a.length, b.length, "the page and the tool rendered different sizes");
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/** Per kind, a parameter set through its own control, so every kind's path is exercised. */
const SETTINGS = {
  perlin: [["#fractal", "fbm"], ["#param-octaves", 4]],
  gradient: [["#dims", 3], ["#offset-z", 2.5]],
  value: [["#param-interp", "catmull-rom"]],
  simplex: [["#offset-x", 1e9 + 0.25]],
  cellular: [["#param-jitter", 0.5], ["#param-distance", "manhattan"]],
  "sparse-convolution": [["#param-density", 2]],
  gabor: [["#param-gabor_orientation", 30]],
};

test("every kind renders on WebGPU and matches the tool's CPU twin within the stated bound", async () => {
  const { browser, page, problems } = await openPage(true);
  try {
    assert.ok(await page.evaluate(() => window.gpuNoise.page.previewer.gpu), "no WebGPU adapter in headless Chromium");
    await setControl(page, "#size", 256);
    await setControl(page, "#seed", 7);
    const kinds = await page.evaluate(() => window.gpuNoise.page.meta.kinds.map((k) => k.name));
    assert.deepEqual(Object.keys(SETTINGS).sort(), [...kinds].sort(), "a kind without a case here");
    const failures = [];
    for (const kind of kinds) {
      await setControl(page, "#kind", kind);
      for (const [selector, value] of SETTINGS[kind]) await setControl(page, selector, value);
      const { text, values, bound, onGpu } = await shownView(page);
      assert.ok(onGpu, `${kind} did not render on WebGPU`);
      const worst = maxDifference(values, twinOf(text, kind));
      console.log(`${kind}: max |WebGPU - twin| ${worst.toExponential(2)}, bound ${bound.toExponential(2)}`);
      if (!(worst <= bound)) failures.push(`${kind}: |WebGPU - twin| ${worst} exceeds the bound ${bound}\n${text}`);
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(problems, []);
    await frameTimes(page);
    if (process.env.SCREENSHOT) await screenshot(page);
  } finally {
    await browser.close();
  }
});

test("an exported spec renders the exported PNG again through the tool, pixel for pixel", async () => {
  const { browser, page } = await openPage(true);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "cellular");
    await setControl(page, "#param-return", "f2-f1");
    await setControl(page, "#colormap", "terrain");
    await setControl(page, "#offset-y", -123456.5);
    const specFile = await downloadOf(page, "#export-spec", "view.json");
    const pngFile = await downloadOf(page, "#export-png", "view.png");
    const spec = JSON.parse(fs.readFileSync(specFile, "utf8"));
    assert.equal(spec.colormap, "terrain");
    assert.equal(spec.offset[1], -123456.5);
    const cli = path.join(scratch, "cli.png");
    runTool(["render", "--quiet", "--spec", specFile, "-o", cli]);
    assert.equal(samePixels(pngFile, cli), 0, "the page's PNG and the tool's differ");
    // The address holds the spec: opening it again renders the same view.
    const shared = await page.evaluate(() => location.href);
    const again = await openPage(true, shared);
    const [before_, after_] = [await page.evaluate(() => window.gpuNoise.specText()), await again.page.evaluate(() => window.gpuNoise.specText())];
    await again.browser.close();
    assert.equal(after_, before_, "a shared address did not restore the view");
  } finally {
    await browser.close();
  }
});

test("a large export: bands rendered by workers, the raw f32 the tool's --backend simd bit for bit, the PNG the tool's pixel for pixel, the view in more detail; a bad size names the field", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "simplex");
    await setControl(page, "#colormap", "terrain");
    await setControl(page, "#offset-x", -98765.25);
    await page.fill("#export-size", "40000x16");
    await page.click("#export-large");
    await page.waitForFunction(() => !document.getElementById("export-size-error").hidden);
    assert.match(await page.locator("#export-size-error").textContent(), /export size: "40000x16" is not WIDTHxHEIGHT with each side in 1\.\.=32768/);
    assert.equal(await page.locator("#export-size").getAttribute("aria-invalid"), "true");
    // 1100 texels a row: bands of 953 rows (2^20 texels), the last of 94.
    const size = "1100x2000";
    await page.fill("#export-size", size);
    const specFile = await downloadOf(page, "#export-spec", "large.json");
    await page.selectOption("#export-framing", "world");
    await page.selectOption("#export-format", "f32");
    const raw = fs.readFileSync(await downloadOf(page, "#export-large", "large.f32"));
    assert.equal(await page.locator("#export-size").getAttribute("aria-invalid"), "false");
    assert.match(await page.locator("#export-status").textContent(), /1100x2000 f32/);
    // The tool's raw values hold no levels; its PNG takes the spec's.
    const { colormap, range, ...values } = JSON.parse(fs.readFileSync(specFile, "utf8"));
    const valuesFile = path.join(scratch, "large-values.json");
    fs.writeFileSync(valuesFile, JSON.stringify(values));
    const cliRaw = path.join(scratch, "large-cli.f32");
    runTool(["render", "--quiet", "--spec", valuesFile, "--size", size, "--backend", "simd", "-o", cliRaw]);
    assert.equal(raw.length, 1100 * 2000 * 4);
    assert.ok(raw.equals(fs.readFileSync(cliRaw)), "the page's raw export and the tool's SIMD render differ");
    await page.selectOption("#export-format", "png");
    const png = await downloadOf(page, "#export-large", "large.png");
    const cliPng = path.join(scratch, "large-cli.png");
    runTool(["render", "--quiet", "--spec", specFile, "--size", size, "--backend", "simd", "-o", cliPng]);
    assert.equal(samePixels(png, cliPng), 0, "the page's large PNG and the tool's differ");
    // "The view, more detail" at 512^2: the 256^2 view's texels are every second one of the
    // export (its frequency halved, its offsets doubled: the same points, exactly), and the
    // export's own spec renders it again through the tool.
    await page.selectOption("#export-framing", "detail");
    await page.selectOption("#export-format", "f32");
    await page.fill("#export-size", "512x512");
    const detail = fs.readFileSync(await downloadOf(page, "#export-large", "detail.f32"));
    const detailSpec = await downloadOf(page, "#export-large-spec", "detail.json");
    const cliView = path.join(scratch, "view.f32");
    runTool(["render", "--quiet", "--spec", valuesFile, "--backend", "simd", "-o", cliView]);
    const view = new Float32Array(new Uint8Array(fs.readFileSync(cliView)).buffer);
    const fine = new Float32Array(new Uint8Array(detail).buffer);
    assert.equal(view.length, 256 * 256);
    for (let j = 0; j < 256; j++) {
      for (let i = 0; i < 256; i++) assert.equal(fine[2 * j * 512 + 2 * i], view[j * 256 + i], `view texel (${i}, ${j})`);
    }
    assert.equal(JSON.parse(fs.readFileSync(detailSpec, "utf8")).colormap, undefined, "a raw export's spec holds no levels");
    const cliDetail = path.join(scratch, "detail-cli.f32");
    runTool(["render", "--quiet", "--spec", detailSpec, "--backend", "simd", "-o", cliDetail]);
    assert.ok(detail.equals(fs.readFileSync(cliDetail)), "the detail export and its spec's render differ");
    // A graph's view in more detail: its root scale (the zoom node) halved, the same check.
    await setControl(page, "#mode", "graph");
    await setControl(page, "#preset", "terrain");
    const graphDetail = fs.readFileSync(await downloadOf(page, "#export-large", "graph-detail.f32"));
    const graphSpec = await downloadOf(page, "#export-large-spec", "graph-detail.json");
    assert.equal(JSON.parse(fs.readFileSync(graphSpec, "utf8")).graph.nodes.view_zoom.by[0], 0.5);
    const cliGraph = path.join(scratch, "graph-detail-cli.f32");
    runTool(["render", "--quiet", "--spec", graphSpec, "--backend", "simd", "-o", cliGraph]);
    assert.ok(graphDetail.equals(fs.readFileSync(cliGraph)), "the graph's detail export and its spec's render differ");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("a normal-map view on WebGPU matches the twin, and its PNG is the tool's --channels normal", async () => {
  const { browser, page } = await openPage(true);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "simplex");
    await setControl(page, "#fractal", "fbm");
    await setControl(page, "#channels", "normal");
    await setControl(page, "#normal_strength", 12);
    const { text, values, bound, normals } = await shownView(page);
    assert.ok(normals, "the view is not a normal map");
    // The value channel of the derivative kernel, against the twin's values.
    const { channels, normal_strength, ...valueSpec } = JSON.parse(text);
    assert.deepEqual([channels, normal_strength], ["normal", 12]);
    const worst = maxDifference(values, twinOf(JSON.stringify(valueSpec), "normal-values"));
    assert.ok(worst <= bound, `normal view values: ${worst} exceeds ${bound}`);
    const specFile = await downloadOf(page, "#export-spec", "normal.json");
    const pngFile = await downloadOf(page, "#export-png", "normal.png");
    const cli = path.join(scratch, "normal-cli.png");
    runTool(["render", "--quiet", "--spec", specFile, "-o", cli]);
    assert.equal(samePixels(pngFile, cli), 0, "the page's normal map and the tool's differ");
  } finally {
    await browser.close();
  }
});

test("every graph preset renders on WebGPU and matches the tool's twin within its bound", async () => {
  const { browser, page } = await openPage(true);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#mode", "graph");
    const presets = await page.evaluate(() => Object.keys(window.gpuNoise.page.meta.presets));
    assert.ok(presets.length >= 3, `presets: ${presets}`);
    for (const preset of presets) {
      await setControl(page, "#preset", preset);
      const { text, values, bound } = await shownView(page);
      assert.ok(JSON.parse(text).graph, `${preset}: the spec holds no graph`);
      const worst = maxDifference(values, twinOf(text, `graph-${preset}`));
      console.log(`graph ${preset}: max |WebGPU - twin| ${worst.toExponential(2)}, bound ${bound.toExponential(2)}`);
      assert.ok(worst <= bound, `graph ${preset}: ${worst} exceeds ${bound}`);
    }
  } finally {
    await browser.close();
  }
});

test("the page fits a laptop's and a phone's window, with no parameter name cut off", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "gabor");
    for (const [width, height] of [[1024, 768], [390, 844]]) {
      await page.setViewportSize({ width, height });
      const fit = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
        image: document.getElementById("image").getBoundingClientRect().width,
        cut: [...document.querySelectorAll("label > span:first-child")]
          .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.textContent),
      }));
      assert.ok(fit.page <= fit.window, `at ${width}x${height} the page is ${fit.page} px wide`);
      assert.ok(fit.image >= Math.min(512, width - 24) - 1, `at ${width}x${height} the image is ${fit.image} px wide`);
      assert.deepEqual(fit.cut, [], `at ${width}x${height} these names are cut off`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

/** Builds, in the page's node editor, a graph with one node of every type the editor offers:
 *  the sources first, then each other type reading the one before it, its other inputs taking
 *  the sources in turn; the last node is the output. */
function buildEveryNodeType() {
  const e = window.gpuNoise.editor();
  e.clear(2);
  const types = window.gpuNoise.page.meta.nodes;
  const params = {
    constant: { value: 0.25 },
    coordinate: { axis: "y", frequency: 0.01 },
    gabor: { density: 2 },
    // The fractals nest (each reads the one before): one octave each but fbm's keeps the
    // fused kernel small (two each made 32 copies of the chain, 40 s on SwiftShader).
    fbm: { octaves: 2 }, turbulence: { octaves: 1 }, ridged: { octaves: 1 }, billow: { octaves: 1 },
    "ridged-multifractal": { octaves: 1 },
    translate: { by: [3.5, -2] }, scale: { by: [1.5, 0.75] }, rotate: { degrees: 30 },
    warp: { amplitude: 4 },
    clamp: { min: -0.5, max: 0.5 }, remap: { from: [-1, 1], to: [0, 1] },
    curve: { points: [[-1, -1], [0, 0.2], [1, 1]] }, terrace: { points: [-0.5, 0, 0.5] },
    power: { exponent: 1.5 }, smoothstep: { edge0: -0.5, edge1: 0.5 },
    "smooth-min": { k: 0.2 }, "smooth-max": { k: 0.2 }, select: { falloff: 0.1 },
  };
  const pool = types.filter((t) => t.category === "source").map((t) => e.add(t.name, { params: params[t.name] }));
  const first = pool[0];
  let chain = pool.shift();
  for (const t of types.filter((t) => t.category !== "source")) {
    const name = e.add(t.name, { params: params[t.name] });
    t.inputs.forEach((input, i) => {
      const count = input.arity === "one" ? 1 : 2;
      for (let k = 0; k < count; k++) e.connect(i === 0 && k === 0 ? chain : pool.shift() ?? first, name, input.name, k);
    });
    chain = name;
  }
  e.setOutput(chain);
  return { unused: pool.length, offered: types.map((t) => t.name) };
}

// On WebGPU: this test found that Chrome refused every graph with a kind without derivatives
// (its gradient function held a constant NaN, a WGSL error that naga let through).
test("a graph built node by node in the editor, every node type once, renders on WebGPU as the tool renders its JSON", async () => {
  const { browser, page, problems } = await openPage(true);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#mode", "graph");
    const { unused, offered } = await page.evaluate(buildEveryNodeType);
    assert.equal(unused, 0, "every source feeds the graph");
    await editorRendered(page);
    const graph = await page.evaluate(() => window.gpuNoise.editor().graph());
    const used = Object.values(graph.nodes).map((n) => n.type).sort();
    assert.deepEqual(used, [...offered].sort(), "one node of each type the editor offers");
    const error = await page.evaluate(() => document.body.dataset.error);
    assert.ok(!error, `the built graph: ${error}`);
    const { text, values, bound } = await shownView(page);
    const worst = maxDifference(values, twinOf(text, "editor-every-node"));
    console.log(`editor graph (${used.length} nodes): max |page - twin| ${worst.toExponential(2)}, bound ${bound.toExponential(2)}`);
    assert.ok(worst <= bound, `${worst} exceeds ${bound}`);
    // Every node shows its own output and its time.
    await thumbnailsDrawn(page);
    const times = await page.$$eval("#editor .gn-time", (t) => t.map((e) => e.textContent));
    assert.equal(times.length, used.length);
    assert.ok(times.every((t) => / ms$/.test(t)), `thumbnail times: ${times}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("the node editor round-trips JSON, and undoes, redoes, copies, pastes, duplicates and deletes", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#mode", "graph");
    await setControl(page, "#preset", "terrain");
    const loaded = await page.evaluate(() => window.gpuNoise.editor().graph());
    const preset = JSON.parse(await page.evaluate(() => window.gpuNoise.page.meta.presets.terrain));
    // The canvas holds the preset's graph, field for field (inputs as lists where a list).
    assert.equal(Object.keys(loaded.nodes).length, Object.keys(preset.nodes).length);
    assert.equal(loaded.output, preset.output);
    for (const [name, fields] of Object.entries(preset.nodes)) {
      for (const [key, value] of Object.entries(fields)) {
        assert.deepEqual(loaded.nodes[name][key], value, `${name}.${key}`);
      }
    }
    const count = () => page.evaluate(() => Object.keys(window.gpuNoise.editor().graph().nodes).length);
    const n = await count();
    const before = await page.evaluate(() => JSON.stringify(window.gpuNoise.editor().graph()));
    // Duplicate, then undo and redo it.
    const copy = await page.evaluate(() => window.gpuNoise.editor().duplicate(Object.keys(window.gpuNoise.editor().graph().nodes)[0]));
    assert.ok(copy, "duplicate gives a name");
    await page.waitForTimeout(50);
    assert.equal(await count(), n + 1);
    await page.click("#undo");
    assert.equal(await count(), n);
    await page.click("#redo");
    assert.equal(await count(), n + 1);
    await page.click("#undo");
    // Delete a node with inputs and outputs; undo brings it back wired as it was.
    const victim = Object.entries(preset.nodes).find(([, f]) => f.source)[0];
    await page.evaluate((v) => window.gpuNoise.editor().remove(v), victim);
    await page.waitForTimeout(50);
    assert.equal(await count(), n - 1);
    await page.click("#undo");
    assert.equal(await page.evaluate(() => JSON.stringify(window.gpuNoise.editor().graph())), before);
    // Copy and paste: the node with the nodes it reads (editor.test.mjs checks the wires), the
    // same type and parameters under a fresh name.
    const pasted = await page.evaluate((v) => {
      const e = window.gpuNoise.editor();
      e.copy(v);
      return e.paste();
    }, victim);
    await page.waitForTimeout(50);
    const g = await page.evaluate(() => window.gpuNoise.editor().graph());
    const { source, ...params } = preset.nodes[victim];
    const { source: none, ...pastedParams } = g.nodes[pasted];
    assert.notEqual(pasted, victim);
    assert.deepEqual(pastedParams, params);
    assert.ok(g.nodes[none] && none !== source, `the pasted node reads the pasted copy of its source, not ${none}`);
    // The JSON text follows the canvas, and a text loaded by "Render graph" rebuilds it.
    await editorRendered(page);
    const text = await page.$eval("#graph", (t) => t.value);
    assert.deepEqual(JSON.parse(text).nodes[pasted], g.nodes[pasted]);
    await page.evaluate((t) => { document.getElementById("graph").value = t; }, before);
    await page.click("#apply-graph");
    await editorRendered(page);
    assert.equal(await page.evaluate(() => JSON.stringify(window.gpuNoise.editor().graph())), before);
    // A file loads too: the example marble graph, node for node.
    const marble = path.join(web, "..", "examples", "graphs", "marble.json");
    await page.setInputFiles("#load-graph", marble);
    await page.waitForFunction(() => window.gpuNoise.editor().graph().nodes.veins !== undefined);
    await editorRendered(page);
    const fromFile = await page.evaluate(() => window.gpuNoise.editor().graph());
    assert.deepEqual(Object.keys(fromFile.nodes).sort(), Object.keys(JSON.parse(fs.readFileSync(marble, "utf8")).nodes).sort());
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("graph mode names its preset and seed, and one-kind mode comes back as it was left", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "simplex");
    await setControl(page, "#fractal", "fbm");
    await setControl(page, "#param-frequency", 0.05);
    const flat = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    await setControl(page, "#mode", "graph");
    const preset = await page.locator("#preset").inputValue();
    assert.notEqual(preset, "", "the preset menu does not name the graph shown");
    const graph = JSON.parse(await page.locator("#graph").inputValue());
    assert.equal(await page.locator("#seed").inputValue(), String(graph.seed ?? 0), "the seed field is not the graph's seed");
    // The wheel zooms a graph too: a scale node above its output, exact as the flat zoom, so the
    // tool renders the zoomed view's spec to the page's values.
    assert.match(await page.locator("#nav-hint").textContent(), /wheel/);
    const frames = await page.evaluate(() => Number(document.body.dataset.frames));
    await page.locator("#stage").hover({ position: { x: 100, y: 60 } });
    await page.mouse.wheel(0, -100);
    await page.waitForFunction((n) => Number(document.body.dataset.frames) > n && !window.gpuNoise.page.rendering, frames);
    const zoomed = await shownView(page);
    const zoomedGraph = JSON.parse(zoomed.text).graph;
    assert.equal(zoomedGraph.output, "view_zoom");
    assert.deepEqual(zoomedGraph.nodes.view_zoom.by.slice(0, 2), [0.8, 0.8]);
    assert.notDeepEqual(JSON.parse(zoomed.text).offset, [0, 0], "the point under the cursor moved");
    const twin = twinOf(zoomed.text, "graph-zoom");
    assert.ok(maxDifference(zoomed.values, twin) <= zoomed.bound, "the zoomed graph is not the tool's");
    await setControl(page, "#mode", "noise");
    const back = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    for (const k of ["kind", "fractal", "octaves", "frequency"]) assert.equal(back[k], flat[k], `${k} was lost`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("Back returns to the previous view instead of leaving the page", async () => {
  const { browser, page, problems } = await openPage(false);
  try {
    await setControl(page, "#size", 256);
    await page.waitForTimeout(1200);
    await setControl(page, "#kind", "value");
    await page.waitForTimeout(1200);
    await setControl(page, "#kind", "simplex");
    const frames = await page.evaluate(() => Number(document.body.dataset.frames));
    await page.goBack();
    await page.waitForFunction((n) => Number(document.body.dataset.frames) > n && !window.gpuNoise.page.rendering, frames);
    assert.equal(new URL(page.url()).origin, new URL(served.origin).origin, "Back left the page");
    const spec = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    assert.deepEqual([spec.kind, spec.size], ["value", [256, 256]]);
    assert.equal(await page.locator("#kind").inputValue(), "value");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("auto times both engines and keeps the CPU's SIMD lanes where WebGPU is a software rasterizer, says so, and WebGPU can be picked", async () => {
  const { browser, page, problems } = await openPage(true, served.origin, null);
  try {
    assert.equal(await page.locator("#engine").inputValue(), "auto");
    await page.evaluate(() => window.gpuNoise.page.autoTimed);
    assert.equal(await page.evaluate(() => window.gpuNoise.page.previewer.gpu), false, "auto chose SwiftShader's WebGPU");
    assert.match(await page.locator("#no-gpu").textContent(), /The CPU is faster here: a frame of this view took \d+ ms on the SIMD lanes in wasm and \d+ ms on WebGPU/);
    assert.match(await page.locator("#backend").textContent(), /CPU SIMD lanes in wasm/);
    await setControl(page, "#size", 256);
    await setControl(page, "#engine", "webgpu");
    assert.ok(await page.evaluate(() => window.gpuNoise.onGpu()), "picking WebGPU did not render on it");
    assert.equal(await page.locator("#no-gpu").isVisible(), false);
    assert.match(await page.evaluate(() => location.search), /engine=webgpu/);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("a shared graph link shows its first frame at once on a software adapter, timing WebGPU in the background", async () => {
  const graph = JSON.parse(fs.readFileSync(path.join(web, "..", "examples", "graphs", "terrain.json"), "utf8"));
  const address = `${served.origin}#spec=${encodeURIComponent(JSON.stringify({ graph, size: [512, 512] }))}`;
  const { browser, page, problems } = await openPage(true, address, null);
  try {
    // The first frame, in ms since the page's navigation, and on which engine.
    const first = await page.evaluate(() => ({ at: performance.now(), gpu: window.gpuNoise.page.previewer.gpu }));
    assert.equal(first.gpu, false, "the first frame is the CPU lanes'");
    await page.evaluate(() => window.gpuNoise.page.autoTimed);
    const label = await page.locator("#backend").textContent();
    const [, lanes, gpu] = label.match(/auto: a frame (\d+) ms, the other (\d+) ms/) ?? [];
    assert.ok(gpu !== undefined, label);
    console.log(`graph link: first frame ${first.at.toFixed(0)} ms after navigation; a frame on WebGPU ${gpu} ms, on the lanes ${lanes} ms`);
    // Timing both engines before the first frame took two WebGPU frames and two of the lanes
    // (121-148 s for a graph link at first); now the first frame waits on neither.
    assert.ok(first.at < 2 * Number(gpu), `first frame at ${first.at.toFixed(0)} ms; WebGPU frame ${gpu} ms, lanes ${lanes} ms`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("without WebGPU the page says so and renders on the CPU's SIMD lanes within the bound; the twin engine equals the tool's", async () => {
  const { browser, page } = await openPage(false);
  try {
    const label = await page.locator("#backend").textContent();
    assert.match(label, /CPU SIMD lanes in wasm/);
    assert.ok(await page.locator("#no-gpu").isVisible(), "the no-WebGPU notice is hidden");
    await setControl(page, "#size", 256);
    await setControl(page, "#kind", "simplex");
    await setControl(page, "#fractal", "ridged");
    const lanes = await shownView(page);
    const twin = twinOf(lanes.text, "fallback");
    const worst = maxDifference(lanes.values, twin);
    console.log(`SIMD lanes in wasm: max |lanes - twin| ${worst.toExponential(2)}, bound ${lanes.bound.toExponential(2)}`);
    assert.ok(worst > 0 && worst <= lanes.bound, `the lanes are ${worst} from the twin (bound ${lanes.bound})`);
    await frameTimes(page);
    await setControl(page, "#engine", "twin");
    assert.match(await page.locator("#backend").textContent(), /CPU twin in wasm/);
    await setControl(page, "#size", 256);
    await setControl(page, "#mode", "noise");
    await setControl(page, "#kind", "simplex");
    await setControl(page, "#fractal", "ridged");
    const exact = await shownView(page);
    assert.equal(maxDifference(exact.values, twinOf(exact.text, "fallback-twin")), 0, "the wasm twin differs from the tool's");
    await frameTimes(page);
    // The lanes on this thread alone (?workers=0) give the workers' frame, texel for texel.
    const single = await openPage(false, `${served.origin}?workers=0#spec=${encodeURIComponent(lanes.text)}`);
    try {
      assert.match(await single.page.locator("#backend").textContent(), /CPU SIMD lanes in wasm \(one thread\)/);
      assert.match(label, /workers\)/);
      const one = await shownView(single.page);
      assert.equal(maxDifference(one.values, lanes.values), 0, "the workers' frame differs from one thread's");
      await frameTimes(single.page);
    } finally {
      await single.browser.close();
    }
  } finally {
    await browser.close();
  }
});

/** RGB components that differ between two PNGs of the same size. */
function samePixels(a, b) {
  const [pa, pb] = [PNG.sync.read(fs.readFileSync(a)), PNG.sync.read(fs.readFileSync(b))];
  assert.deepEqual([pa.width, pa.height], [pb.width, pb.height]);
  let differing = 0;
  for (let i = 0; i < pa.width * pa.height; i++) {
    for (let c = 0; c < 3; c++) if (pa.data[4 * i + c] !== pb.data[4 * i + c]) differing++;
  }
  return differing;
}

async function downloadOf(page, button, name) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
  const file = path.join(scratch, name);
  await download.saveAs(file);
  return file;
}

/** Mean frame time (render, readback, levels, draw) over 5 frames after a warm-up, of perlin
 *  fBm 6 at 512^2 and 1024^2 and of the terrain preset at 512^2, on the page's engine: printed
 *  for the README, never asserted. */
async function frameTimes(page) {
  const engine = await page.evaluate(() => (window.gpuNoise.onGpu() ? "WebGPU" : window.gpuNoise.page.previewer.twin ? "CPU twin"
    : `CPU SIMD lanes (${window.gpuNoise.page.previewer.workers?.length ?? 1} thread(s))`));
  const measure = async (what) => {
    const times = [];
    const renders = [];
    for (let i = 0; i < 5; i++) {
      await setControl(page, "#seed", 100 + i);
      times.push(await page.evaluate(() => window.gpuNoise.page.frameMs));
      renders.push(await page.evaluate(() => window.gpuNoise.page.renderMs));
    }
    const mean = (xs) => (xs.reduce((a, b) => a + b) / xs.length).toFixed(1);
    console.log(`frame time on the ${engine}, ${what}: ${mean(times)} ms, of which render and readback ${mean(renders)} ms (frames ${times.map((t) => t.toFixed(0)).join(", ")})`);
  };
  await setControl(page, "#kind", "perlin");
  await setControl(page, "#fractal", "fbm");
  await setControl(page, "#param-octaves", 6);
  for (const side of [512, 1024]) {
    await setControl(page, "#size", side);
    await measure(`perlin fBm 6 octaves, ${side}x${side}`);
  }
  await setControl(page, "#size", 512);
  await setControl(page, "#mode", "graph");
  await setControl(page, "#preset", "terrain");
  await measure("the terrain example graph (12 noises a texel), 512x512");
}

/** The README's pictures: the first view's kind at 512^2 in a 1280x800 window, and the same
 *  page in a phone's 390x844 (SCREENSHOT=docs/previewer.png also writes previewer-390.png). */
async function screenshot(page) {
  for (const [selector, value] of [["#mode", "noise"], ["#kind", "perlin"], ["#size", "512"], ["#colormap", "terrain"]]) {
    if ((await page.locator(selector).inputValue()) !== value) await setControl(page, selector, value);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: process.env.SCREENSHOT });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: process.env.SCREENSHOT.replace(/\.png$/, "-390.png") });
}

/** Reads a `.npy` of f32 written by the tool: its shape and values. */
function readNpy(file) {
  const bytes = fs.readFileSync(file);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString("latin1");
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(",").filter((s) => s.trim()).map(Number);
  const data = bytes.subarray(10 + headerLength);
  const values = new Float32Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  return { shape, values };
}

/** The page on `spec` with its endless world shown and every wanted chunk built: the page and
 *  the world (`window.gpuNoise.world()`); a chunk that failed fails here. */
async function openWorld(spec) {
  const address = `${served.origin}#spec=${encodeURIComponent(JSON.stringify(spec))}`;
  const opened = await openPage(false, address);
  const { page } = opened;
  await page.locator("#show-3d").check();
  await page.waitForFunction(() => Number(document.body.dataset.surfaces) > 0 || document.body.dataset.error, null, { timeout: 120000 });
  await page.locator("#world-3d").check();
  await page.waitForFunction(() => window.gpuNoise.world()?.settled, null, { timeout: 240000, polling: 250 });
  const world = await page.evaluate(() => window.gpuNoise.world());
  if (world.errors.length) await opened.browser.close();
  assert.deepEqual(world.errors, []);
  return { ...opened, world };
}

test("the endless 3D world: its chunks at two levels of detail are the tool's texels; the camera flies and stays above the ground", async () => {
  const spec = { kind: "perlin", fractal: "fbm", octaves: 4, frequency: 0.01, size: [256, 256], offset: [50000.5, -7000], colormap: "terrain" };
  const { browser, page, problems, world } = await openWorld(spec);
  try {
    const levels = [...new Set(world.chunks.map((c) => c.lod))].sort();
    assert.ok(levels.includes(0) && levels.length >= 3, `chunk levels ${levels}`);
    // Chunk (cx, cy) at level L holds every 2^L-th texel of the world from texel
    // (32 cx 2^L, 32 cy 2^L): the tool's image there, on the SIMD backend, bit for bit.
    for (const lod of [0, 2]) {
      const chunk = world.chunks.find((c) => c.lod === lod);
      const step = 1 << lod;
      const side = 32 * step + 1;
      const offset = [spec.offset[0] + chunk.cx * 32 * step, spec.offset[1] + chunk.cy * 32 * step];
      const npy = path.join(scratch, `world-${lod}.npy`);
      execFileSync(tool, ["render", "-q", "--kind", "perlin", "--fractal", "fbm", "--octaves", "4", "--frequency", "0.01",
        "--size", `${side}x${side}`, "--offset", offset.join(","), "--channels", "gradient", "--backend", "simd", "-o", npy]);
      const { shape, values } = readNpy(npy);
      assert.deepEqual(shape, [side, side, 3]);
      assert.equal(chunk.stride, step);
      for (let j = 0; j <= 32; j++) {
        for (let i = 0; i <= 32; i++) {
          const tool = values[3 * (j * step * side + i * step)];
          assert.equal(chunk.heights[j * 33 + i], tool, `chunk (${chunk.cx}, ${chunk.cy}) at level ${lod}, vertex (${i}, ${j})`);
        }
      }
    }
    // W flies forward (once the canvas has the focus), new chunks follow; F down never takes the
    // camera under the ground.
    await page.locator("#view3d").click();
    const start = world.camera;
    await page.keyboard.down("w");
    await page.waitForTimeout(800);
    await page.keyboard.up("w");
    await page.keyboard.down("f");
    await page.waitForTimeout(3000);
    await page.keyboard.up("f");
    await page.waitForFunction(() => window.gpuNoise.world()?.settled, null, { timeout: 120000, polling: 250 });
    const after = await page.evaluate(() => window.gpuNoise.world());
    // It looked towards +x and +z (at texel (200, 200) from the origin).
    const moved = [after.camera[0] - start[0], after.camera[2] - start[2]];
    assert.ok(moved[0] > 5 && moved[1] > 5, `the camera moved by ${moved} texels`);
    const [x, y, z] = after.camera;
    const scale = Number(await page.locator("#height-scale").inputValue());
    const under = after.chunks.filter((c) => c.lod === 0 && x >= 32 * c.cx && x <= 32 * (c.cx + 1) && z >= 32 * c.cy && z <= 32 * (c.cy + 1));
    assert.equal(under.length >= 1, true, "no finest chunk under the camera");
    const ground = under[0].heights[Math.round(z - 32 * under[0].cy) * 33 + Math.round(x - 32 * under[0].cx)] * scale;
    assert.ok(y >= ground + 3.9, `the camera at height ${y}, the ground ${ground}`);
    assert.ok(y < start[1], "F took the camera down");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("the endless 3D world of a 3D spec: each block is the iso-surface of the tool's texels, and neighbouring blocks meet exactly", async () => {
  const spec = { kind: "simplex", dims: 3, frequency: 0.06, size: [128, 128], offset: [-3000, 70.5, 12] };
  const { browser, page, problems, world } = await openWorld(spec);
  try {
    assert.equal(world.chunks.length, 75, "5 x 5 x 3 blocks");
    const block = (x, y, z) => world.chunks.find((b) => b.bx === x && b.by === y && b.bz === z);
    const [a, b] = [block(0, 0, 0), block(1, 0, 0)];
    // The tool's texels of block (0, 0, 0): 34^3 from its corner, on the SIMD backend.
    const f32 = path.join(scratch, "block.f32");
    execFileSync(tool, ["render", "-q", "--kind", "simplex", "--dims", "3", "--frequency", "0.06",
      "--size", "34x34x34", "--offset", spec.offset.join(","), "--backend", "simd", "-o", f32]);
    const bytes = fs.readFileSync(f32);
    const v = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    // The level: the middle of the view's values (printed in the page's note).
    assert.ok(Math.abs(world.level) < 0.2, `level ${world.level}`);
    const inside = (i, j, k) => v[(k * 34 + j) * 34 + i] > world.level;
    // One quad a grid edge the level crosses, the block's own edges: along the axis from
    // 0..32, across it 1..=32.
    let quads = 0;
    for (let k = 0; k < 34; k++) for (let j = 0; j < 34; j++) for (let i = 0; i < 34; i++) {
      const p = [i, j, k];
      for (let axis = 0; axis < 3; axis++) {
        const [u, w] = [(axis + 1) % 3, (axis + 2) % 3];
        if (p[axis] >= 32 || p[u] < 1 || p[u] > 32 || p[w] < 1 || p[w] > 32) continue;
        const q = [...p];
        q[axis] += 1;
        if (inside(...p) !== inside(...q)) quads++;
      }
    }
    assert.ok(quads > 100, `only ${quads} crossings in the block`);
    assert.equal(a.quads, quads, "the block's quads are not the tool's crossings");
    // Each vertex lies in a cell whose corners straddle the level.
    for (let n = 0; n < a.positions.length; n += 3) {
      const c = a.positions.slice(n, n + 3).map((x) => Math.min(32, Math.floor(x)));
      const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((m) => inside(c[0] + (m & 1), c[1] + ((m >> 1) & 1), c[2] + (m >> 2)));
      assert.ok(corners.includes(true) && corners.includes(false), `vertex ${a.positions.slice(n, n + 3)} in a cell the level does not cross`);
    }
    // The last cells of block (0, 0, 0) along x are the first of block (1, 0, 0): the same
    // vertices, 32 texels apart.
    const layer = (blk, lo, hi, shift) => {
      const out = [];
      for (let n = 0; n < blk.positions.length; n += 3) {
        const [x, y, z] = blk.positions.slice(n, n + 3);
        if (x >= lo && x < hi) out.push([x + shift, y, z]);
      }
      return out.sort((p, q) => p[1] - q[1] || p[2] - q[2] || p[0] - q[0]);
    };
    const [left, right] = [layer(a, 32, 33, -32), layer(b, 0, 1, 0)];
    assert.ok(left.length > 0);
    assert.equal(left.length, right.length);
    left.forEach((p, n) => p.forEach((x, c) => assert.ok(Math.abs(x - right[n][c]) < 1e-5, `seam vertex ${p} vs ${right[n]}`)));
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("the 3D view draws the 2D view's heights, lit by the tool's analytic gradient", async () => {
  // A 300 x 300 view: the mesh takes every second texel (at most 256 vertices a side).
  const spec = { kind: "simplex", fractal: "fbm", octaves: 3, frequency: 0.02, size: [300, 300], offset: [1000000, -2500], colormap: "terrain" };
  const address = `${served.origin}#spec=${encodeURIComponent(JSON.stringify(spec))}`;
  const { browser, page, problems } = await openPage(false, address);
  try {
    await page.locator("#show-3d").check();
    await page.waitForFunction(() => Number(document.body.dataset.surfaces) > 0 || document.body.dataset.error, null, { timeout: 120000 });
    assert.ok(!(await page.evaluate(() => document.body.dataset.error)), await page.evaluate(() => document.body.dataset.error));
    const surface = await page.evaluate(() => window.gpuNoise.surface());
    const values = await page.evaluate(() => window.gpuNoise.values());
    assert.deepEqual([surface.columns, surface.rows, surface.stride], [150, 150, 2]);
    // The heights are the 2D view's values at every second texel (the mesh's from the twin,
    // the view's from the SIMD lanes: within the stated bound).
    const bound = await page.evaluate(() => window.gpuNoise.bound());
    for (let n = 0; n < surface.heights.length; n++) {
      const [i, j] = [n % surface.columns, Math.floor(n / surface.columns)];
      const texel = values[j * 2 * 300 + i * 2];
      assert.ok(Math.abs(surface.heights[n] - texel) <= bound + 1e-7, `vertex (${i}, ${j}): ${surface.heights[n]} vs the view's ${texel}`);
    }
    // The normals are (-s dv/dx, 1, -s dv/dy) normalized, from the tool's analytic gradient.
    const npy = path.join(scratch, "surface.npy");
    execFileSync(tool, ["render", "-q", "--kind", "simplex", "--fractal", "fbm", "--octaves", "3", "--frequency", "0.02",
      "--size", "300x300", "--offset", "1000000,-2500", "--channels", "gradient", "--backend", "cpu", "-o", npy]);
    const { shape, values: gradient } = readNpy(npy);
    assert.deepEqual(shape, [300, 300, 3]);
    const scale = Number(await page.locator("#height-scale").inputValue());
    let worst = 0;
    for (let n = 0; n < surface.heights.length; n += 7) {
      const [i, j] = [n % surface.columns, Math.floor(n / surface.columns)];
      const t = 3 * (j * 2 * 300 + i * 2);
      const [a, b] = [-scale * gradient[t + 1], -scale * gradient[t + 2]];
      const length = Math.hypot(a, 1, b);
      const expected = [a / length, 1 / length, b / length];
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(surface.normals[3 * n + c] - expected[c]));
    }
    assert.ok(worst < 1e-4, `normals off the analytic gradient's by ${worst}`);
    // Something is drawn: the canvas is not one color.
    const shot = PNG.sync.read(await page.locator("#view3d").screenshot());
    const colors = new Set();
    for (let p = 0; p < shot.data.length; p += 4 * 97) colors.add(shot.data.readUInt32BE(p));
    assert.ok(colors.size > 20, `the 3D canvas shows ${colors.size} colors`);
    if (process.env.SCREENSHOT_3D) await page.locator("#view3d").screenshot({ path: process.env.SCREENSHOT_3D });
    // The height scale rebuilds the mesh.
    const before = await page.evaluate(() => Number(document.body.dataset.surfaces));
    await page.locator("#height-scale").fill("200");
    await page.waitForFunction((n) => Number(document.body.dataset.surfaces) > n, before);
    assert.ok((await page.evaluate(() => window.gpuNoise.surface().heights.length)) === 150 * 150);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("the 3D view repeats a tiled spec 2x2 and follows an animated z", async () => {
  const tiled = { kind: "perlin", fractal: "fbm", octaves: 2, tile: true, size: [256, 256] };
  const { browser, page, problems } = await openPage(false, `${served.origin}#spec=${encodeURIComponent(JSON.stringify(tiled))}`);
  try {
    await page.locator("#show-3d").check();
    await page.waitForFunction(() => Number(document.body.dataset.surfaces) > 0);
    assert.equal(await page.evaluate(() => window.gpuNoise.surface().copies), 4);
    assert.ok(await page.locator("#animate-label").isHidden(), "animate z is offered for 2D noise");
    // A volume's slice: z moves a texel a frame, and the 3D view follows each frame.
    await setControl(page, "#dims", 3);
    await page.waitForFunction(() => !window.gpuNoise.page.rendering);
    const z0 = JSON.parse(await page.evaluate(() => window.gpuNoise.specText())).offset[2];
    const surfaces = await page.evaluate(() => Number(document.body.dataset.surfaces));
    await page.locator("#animate-z").check();
    await page.waitForFunction((n) => Number(document.body.dataset.surfaces) >= n + 3, surfaces, { timeout: 60000 });
    await page.locator("#animate-z").uncheck();
    await page.waitForFunction(() => !window.gpuNoise.page.rendering);
    const spec = JSON.parse(await page.evaluate(() => window.gpuNoise.specText()));
    assert.ok(spec.offset[2] >= z0 + 3, `z moved from ${z0} to ${spec.offset[2]}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
