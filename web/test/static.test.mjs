// The static previewer (`bash web/build.sh --static DIR`): a folder that a plain static web
// server hosts with no node at run time. Served here by Python's http.server, it starts,
// renders, draws the 3D view (three.js) and the node editor (Drawflow) from its own files.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPage, setControl, thumbnailsDrawn, web } from "./harness.mjs";

/** `python3 -m http.server` on a free port over `dir`; resolves to its origin and the process. */
function pythonServer(dir) {
  const server = spawn("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", dir], { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((ok, fail) => {
    server.on("error", fail);
    server.stdout.on("data", (line) => {
      const port = /port (\d+)/.exec(String(line))?.[1];
      if (port) ok({ origin: `http://localhost:${port}/`, server });
    });
  });
}

test("the static previewer: a folder any static server hosts starts, renders, and loads the 3D view and the node editor from its own files", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gpu-noise-static-"));
  const out = execFileSync("bash", [path.join(web, "build.sh"), "--static", dir], { encoding: "utf8", cwd: path.join(web, "..") });
  assert.match(out, /static previewer in .* \(\d+(\.\d+)?M\)/);
  assert.ok(!fs.existsSync(path.join(dir, "node_modules")), "the folder carries no node_modules");
  const { origin, server } = await pythonServer(dir);
  const { browser, page, problems } = await openPage(false, origin);
  try {
    await setControl(page, "#size", 256);
    assert.ok(await page.evaluate(() => window.gpuNoise.values().length === 256 * 256));
    await page.locator("#show-3d").check();
    await page.waitForFunction(() => Number(document.body.dataset.surfaces) > 0 || document.body.dataset.error, null, { timeout: 120000 });
    const error = await page.evaluate(() => document.body.dataset.error);
    assert.ok(!error, `the 3D view: ${error}`);
    assert.ok(await page.evaluate(() => window.gpuNoise.surface()?.heights.length > 0), "the 3D view drew no surface");
    // The endless world's fly camera loads from the folder too.
    assert.equal(await page.evaluate(() => import("three/addons/controls/FlyControls.js").then((m) => typeof m.FlyControls)), "function");
    await setControl(page, "#mode", "graph");
    await setControl(page, "#preset", "terrain");
    await thumbnailsDrawn(page);
    assert.ok((await page.locator("#editor .drawflow-node").count()) > 5, "the node editor drew no nodes");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
