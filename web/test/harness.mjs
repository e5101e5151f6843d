// What the previewer's browser tests share: the page served as `web/serve.mjs` serves it,
// Debian's headless Chromium (WebGPU through SwiftShader) driven by playwright-core, and the
// helpers that work the page as a user does. Each test file calls `servePage()` once.

import { after, before } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { createHandler } from "../server.mjs";

export const web = fileURLToPath(new URL("..", import.meta.url));
export const tool = path.join(web, "..", "target", "release", "gpu-noise");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const quietFlags = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"];

/** Serves web/ for this file's tests (started before them, stopped after) and makes a scratch
 *  folder; `origin` and `scratch` are set once the server listens. */
export function servePage() {
  const served = { origin: null, scratch: fs.mkdtempSync(path.join(os.tmpdir(), "gpu-noise-web-")) };
  let server;
  before(async () => {
    for (const [what, file, how] of [
      ["the wasm build", path.join(web, "www", "pkg", "gpu_noise_web.js"), "bash web/build.sh"],
      ["the gpu-noise tool", tool, "cargo build --release"],
      ["Chromium", chromiumPath, "apt-get install -y chromium (or set CHROMIUM)"],
    ]) {
      assert.ok(fs.existsSync(file), `${what} is missing (${file}); run: ${how}`);
    }
    // The handler web/serve.mjs runs, so the page is served as users get it.
    server = http.createServer(createHandler(web));
    await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
    served.origin = `http://localhost:${server.address().port}/`;
  });
  after(() => {
    server?.close();
    fs.rmSync(served.scratch, { recursive: true, force: true });
  });
  return served;
}

/** The page at `address` in Chromium, with WebGPU (SwiftShader) or without; with WebGPU the
 *  engine is asked for by the address (`?engine=webgpu`: auto picks the faster CPU lanes on a
 *  software adapter) unless `address` already names one or `engine` says otherwise.
 *  `viewport` defaults to 1180x860. */
export async function openPage(webgpu, address, engine = "webgpu", viewport = { width: 1180, height: 860 }) {
  if (webgpu && engine && !address.includes("engine=")) {
    const url = new URL(address);
    url.searchParams.set("engine", engine);
    address = url.href;
  }
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: webgpu ? [...quietFlags, "--enable-unsafe-webgpu"] : quietFlags,
  });
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  const problems = [];
  page.on("pageerror", (e) => problems.push(e.message));
  await page.goto(address);
  await page.waitForFunction(() => window.gpuNoise?.ready || document.body.dataset.fatal, null, { timeout: 120000 });
  const fatal = await page.evaluate(() => document.body.dataset.fatal);
  assert.equal(fatal, undefined, `the page failed to start: ${fatal}`);
  return { browser, page, problems };
}

/** Changes a control as a user does, and waits for the frame it causes. */
export async function setControl(page, selector, value) {
  await changeControl(page, selector, value);
  const error = await page.evaluate(() => document.body.dataset.error);
  assert.ok(!error, `setting ${selector} to ${value}: ${error}`);
  await page.waitForFunction(() => !window.gpuNoise.page.rendering);
}

/** Changes a control and waits for its frame or its error (a stale error does not count). */
export async function changeControl(page, selector, value) {
  const frames = await page.evaluate(() => {
    delete document.body.dataset.error;
    return Number(document.body.dataset.frames ?? 0);
  });
  const control = page.locator(selector);
  if ((await control.evaluate((e) => e.tagName)) === "SELECT") await control.selectOption(String(value));
  else {
    await control.fill(String(value));
    await control.dispatchEvent("change");
  }
  await page.waitForFunction(
    (n) => Number(document.body.dataset.frames) > n || document.body.dataset.error,
    frames, { timeout: 120000 },
  );
}

/** Waits until the node editor has drawn every node's thumbnail (the newest pass). */
export async function thumbnailsDrawn(page) {
  await page.evaluate(async () => {
    const editor = window.gpuNoise.editor();
    for (;;) {
      const pass = editor.drawn;
      await pass;
      await new Promise((ok) => setTimeout(ok, 50));
      if (pass === editor.drawn) return;
    }
  });
}

/** Waits until the page has rendered the node editor's graph. */
export async function editorRendered(page) {
  await page.waitForFunction(() => {
    const g = window.gpuNoise;
    if (g.page.rendering || g.page.dirty) return false;
    const shown = JSON.parse(g.specText()).graph;
    return JSON.stringify(shown?.nodes) === JSON.stringify(JSON.parse(JSON.stringify(g.editor().graph())).nodes);
  }, null, { timeout: 240000, polling: 200 });
}
