// The node editor as a user works it, one test per defect a new user found (issue "the
// previewer terrain artists pick"): thumbnails that keep their errors to themselves and show the
// whole view, new nodes in view, Delete on a wire wherever the focus is, one undo step per
// typed value, and no values carried from a graph into one-kind mode or another graph.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { openPage, servePage, setControl, thumbnailsDrawn, tool } from "./harness.mjs";

const served = servePage();

/** The page on the CPU lanes with the terrain preset in the editor, at `side` texels. */
async function terrain(side = 256) {
  const opened = await openPage(false, served.origin);
  await setControl(opened.page, "#size", side);
  await setControl(opened.page, "#mode", "graph");
  await setControl(opened.page, "#preset", "terrain");
  await thumbnailsDrawn(opened.page);
  return opened;
}

/** Runs `check(page)` on the page with the terrain preset in the editor (`side` texels), then
 *  holds that the page threw nothing, and closes the browser. */
async function onTerrain(check, side = 256) {
  const { browser, page, problems } = await terrain(side);
  try {
    await check(page);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
}

/** Drags node `name` by its title as a user does, (dx, dy) pixels; returns its new place. */
async function dragNode(page, name, [dx, dy]) {
  const id = await page.evaluate((n) => window.gpuNoise.editor().idOf(n), name);
  const title = page.locator(`#node-${id} .gn-title small`);
  await title.scrollIntoViewIfNeeded();
  const box = await title.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(100);
  return page.evaluate((n) => window.gpuNoise.editor().positions()[n], name);
}

/** Each node's name with its thumbnail line and state (`failed`, `waits` or `ok`). */
function thumbnailStates(page) {
  return page.$$eval("#editor .drawflow-node", (nodes) => nodes.map((n) => ({
    name: n.querySelector("[df-name]").value,
    line: n.querySelector(".gn-time").textContent,
    state: n.classList.contains("gn-failed") ? "failed" : n.classList.contains("gn-waits") ? "waits" : "ok",
  })));
}

test("an unwired node fails alone: every other thumbnail still renders", async () => {
  await onTerrain(async (page) => {
    const before = await thumbnailStates(page);
    assert.ok(before.every((n) => n.state === "ok" && / ms$/.test(n.line)), JSON.stringify(before));
    // fbm needs a source; left unwired, its graph is invalid.
    const added = await page.evaluate(() => window.gpuNoise.editor().add("fbm"));
    await page.waitForTimeout(50);
    await thumbnailsDrawn(page);
    const after = await thumbnailStates(page);
    const mine = after.find((n) => n.name === added);
    assert.equal(mine.state, "failed", JSON.stringify(mine));
    const others = after.filter((n) => n.name !== added);
    assert.ok(others.every((n) => n.state === "ok" && / ms$/.test(n.line)), JSON.stringify(others));
  });
});

test("a node's thumbnail is its output over the whole view, not the view's corner", async () => {
  await onTerrain(async (page) => {
    const compared = await page.evaluate(() => {
      const g = window.gpuNoise;
      const output = g.editor().graph().output;
      const id = g.editor().idOf(output);
      const thumb = document.querySelector(`#node-${id} .gn-thumb`);
      const image = document.getElementById("image");
      const t = thumb.getContext("2d").getImageData(0, 0, thumb.width, thumb.height).data;
      const v = image.getContext("2d").getImageData(0, 0, image.width, image.height).data;
      const k = Math.ceil(image.width / 96);
      let far = 0;
      for (let j = 0; j < thumb.height; j++) {
        for (let i = 0; i < thumb.width; i++) {
          const a = 4 * (j * thumb.width + i);
          const b = 4 * (j * k * image.width + i * k);
          const d = Math.max(...[0, 1, 2].map((c) => Math.abs(t[a + c] - v[b + c])));
          if (d > 8) far++;
        }
      }
      return { far, texels: thumb.width * thumb.height, side: thumb.width, k };
    });
    // The thumbnail samples every k-th texel of the view (k = 3 here, 86 texels across): the
    // twin against the view's lanes, so a texel may sit one level off; no more than 1% may
    // differ visibly.
    assert.equal(compared.side, 86);
    assert.equal(compared.k, 3);
    assert.ok(compared.far <= compared.texels / 100, JSON.stringify(compared));
  }, 256);
});

test("Add puts the new node in the editor's view", async () => {
  await onTerrain(async (page) => {
    await page.selectOption("#node-type", "perlin");
    for (let k = 0; k < 2; k++) {
      await page.click("#add-node");
      await page.waitForTimeout(50);
    }
    const boxes = await page.evaluate(() => {
      const editor = document.getElementById("editor").getBoundingClientRect();
      const nodes = [...document.querySelectorAll("#editor .drawflow-node")];
      return { editor: editor.toJSON(), added: nodes.slice(-2).map((n) => n.getBoundingClientRect().toJSON()) };
    });
    for (const box of boxes.added) {
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      const e = boxes.editor;
      assert.ok(cx > e.x && cx < e.x + e.width && cy > e.y && cy < e.y + e.height, JSON.stringify(boxes));
    }
    assert.notDeepEqual(boxes.added[0], boxes.added[1], "two new nodes do not lie on each other");
  });
});

test("Delete removes a clicked wire without the canvas holding the keyboard focus", async () => {
  await onTerrain(async (page) => {
    const wires = () => page.$$eval("#editor .connection", (w) => w.length);
    const n = await wires();
    assert.ok(n > 0);
    // Drawflow selects a wire on mousedown on its path (a click at the path's box centre may
    // miss a curved stroke).
    const path = page.locator("#editor .connection .main-path").first();
    await path.dispatchEvent("mousedown");
    await path.dispatchEvent("mouseup");
    assert.ok(await page.evaluate(() => window.gpuNoise.editor().df.connection_selected !== null));
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("Delete");
    await page.waitForTimeout(50);
    assert.equal(await wires(), n - 1);
  });
});

test("a value typed into a node's field is one undo step", async () => {
  await onTerrain(async (page) => {
    const field = page.locator("#editor input[df-params-frequency]").first();
    const original = await field.inputValue();
    await field.click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("0.0125", { delay: 30 });
    await page.waitForTimeout(100);
    assert.equal(await field.inputValue(), "0.0125");
    await page.click("#undo");
    await page.waitForTimeout(50);
    const undone = await page.locator("#editor input[df-params-frequency]").first().inputValue();
    assert.equal(undone, original, "one Undo gives back the value before the typing");
  });
});

test("a graph's range stays with it: one-kind mode and another preset start on their own", async () => {
  const graph = { dims: 2, output: "p", nodes: { p: { type: "perlin", frequency: 0.02 } } };
  const spec = { graph, size: [256, 256], range: [0.049, 1.41], colormap: "gray" };
  const { browser, page, problems } = await openPage(false, `${served.origin}#spec=${encodeURIComponent(JSON.stringify(spec))}`);
  try {
    assert.deepEqual(await page.evaluate(() => window.gpuNoise.page.spec.range), [0.049, 1.41]);
    await setControl(page, "#mode", "noise");
    const flat = await page.evaluate(() => window.gpuNoise.page.spec);
    assert.equal(flat.range, undefined, "one kind does not take the graph's range");
    assert.equal(flat.kind, "perlin");
    assert.deepEqual(flat.offset ?? [0, 0], [0, 0]);
    await setControl(page, "#mode", "graph");
    await setControl(page, "#preset", "caves");
    assert.equal(await page.evaluate(() => window.gpuNoise.page.spec.range), undefined, "a preset does not take the last graph's range");
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test("labels: the file button, each port's name, the profile's ends, the canvas's hint, the engine switch's busy sign", async () => {
  await onTerrain(async (page) => {
    // The file input's own "No file chosen" is hidden behind a button whose text fits.
    const button = await page.$eval("#load-graph-button", (b) => {
      const box = b.getBoundingClientRect();
      const column = b.closest("fieldset").getBoundingClientRect();
      return { text: b.textContent, fits: b.scrollWidth <= b.clientWidth + 1 && box.right <= column.right, shown: box.width > 0 };
    });
    assert.ok(button.shown && button.fits, JSON.stringify(button));
    assert.equal(await page.locator("#load-graph").getAttribute("aria-label"), "open a graph or spec file");
    // Every input dot carries its input's name (list inputs indexed).
    const ports = await page.evaluate(() => {
      const e = window.gpuNoise.editor();
      return e.nodes().map(([id, n]) => ({
        type: n.data.type,
        names: [...document.querySelectorAll(`#node-${id} .inputs .input`)].map((d) => d.dataset.name),
      }));
    });
    const types = await page.evaluate(() => Object.fromEntries(window.gpuNoise.page.meta.nodes.map((t) => [t.name, t.inputs])));
    for (const { type, names } of ports) {
      const expected = types[type].flatMap((i) => (i.arity === "one" ? [i.name] : [0, 1, 2, 3].map((k) => `${i.name}[${k}]`)));
      assert.deepEqual(names, expected, type);
    }
    // The profile's line is named at its ends and in its caption.
    assert.match(await page.locator("#profile-label").textContent(), /from A \(0, 128\) to B \(255, 128\)/);
    assert.match(await page.locator("#editor-hint").textContent(), /pan[\s\S]*wheel[\s\S]*Delete/);
    // Switching engines says so while the next one opens.
    await page.evaluate(() => {
      window.busyTexts = [];
      const busy = document.getElementById("busy");
      new MutationObserver(() => { if (!busy.hidden) window.busyTexts.push(busy.textContent); })
        .observe(busy, { attributes: true, childList: true, characterData: true, subtree: true });
    });
    await setControl(page, "#engine", "twin");
    assert.ok((await page.evaluate(() => window.busyTexts)).includes("switching engine…"));
  });
});

test("a reload keeps the nodes where they were moved, and Undo still steps back", async () => {
  await onTerrain(async (page) => {
    const where = (name) => page.evaluate((n) => window.gpuNoise.editor().positions()[n], name);
    const name = await page.evaluate(() => Object.keys(window.gpuNoise.editor().graph().nodes)[0]);
    const before = await where(name);
    const moved = await dragNode(page, name, [60, 40]);
    assert.notDeepEqual(moved, before, "the drag moved nothing");
    await page.reload();
    await page.waitForFunction(() => window.gpuNoise?.ready, null, { timeout: 120000 });
    assert.equal(await page.locator("#mode").inputValue(), "graph");
    assert.deepEqual(await where(name), moved, "the reload lost the node's place");
    await page.click("#undo");
    await page.waitForTimeout(50);
    assert.deepEqual(await where(name), before, "Undo after the reload did not step back");
  });
});

test("3D view: the camera stays above the ground, the height shows its value, a 3D graph animates z and says it shows a slice", async () => {
  const { browser, page, problems } = await openPage(false, served.origin);
  try {
    await setControl(page, "#size", 256);
    await page.locator("#show-3d").check();
    await page.waitForFunction(() => Number(document.body.dataset.surfaces) > 0 || document.body.dataset.error, null, { timeout: 120000 });
    // Orbit as far down as a drag goes, and up again: the camera never passes under the mesh.
    const canvas = page.locator("#view3d");
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
    for (const dy of [-300, 300, -300]) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx, cy + dy, { steps: 10 });
      await page.mouse.up();
      const heights = await page.evaluate(() => {
        const v = window.gpuNoise.view3d();
        return [v.camera.position.y, v.controls.target.y];
      });
      assert.ok(heights[0] > heights[1], `the camera went under the ground: ${heights}`);
    }
    await page.locator("#height-scale").fill("100");
    assert.equal(await page.locator("#height-value").textContent(), "100");
    // The caves graph is 3D: animate z is offered, and the view says it shows a slice.
    await setControl(page, "#mode", "graph");
    await setControl(page, "#preset", "caves");
    assert.equal(await page.locator("#animate-label").isVisible(), true);
    await page.waitForFunction(() => !document.getElementById("view3d-note").hidden, null, { timeout: 120000 });
    assert.match(await page.locator("#view3d-note").textContent(), /slice z = .* of this 3D noise/);
    const z = () => page.evaluate(() => window.gpuNoise.page.spec.offset[2]);
    const z0 = await z();
    await page.locator("#animate-z").check();
    await page.waitForFunction((start) => window.gpuNoise.page.spec.offset[2] >= start + 2, z0, { timeout: 120000 });
    await page.locator("#animate-z").uncheck();
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

/** The shape of the subtree under `name` in `graph`: its type, parameters and inputs' shapes,
 *  with the names left out (a pasted copy has fresh ones). */
function shape(graph, name, inputsOf) {
  const { type, ...fields } = graph.nodes[name];
  const own = Object.fromEntries(Object.entries(fields).filter(([k]) => !inputsOf(type).includes(k)));
  const inputs = inputsOf(type).map((k) => [].concat(fields[k] ?? []).map((n) => shape(graph, n, inputsOf)));
  return { type, own, inputs };
}

test("a subtree copied through the clipboard pastes into another graph with its wires; a converted node keeps its links", async () => {
  await onTerrain(async (page) => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const types = await page.evaluate(() => Object.fromEntries(window.gpuNoise.page.meta.nodes.map((t) => [t.name, t.inputs.map((i) => i.name)])));
    const inputsOf = (type) => types[type];
    const terrainGraph = await page.evaluate(() => window.gpuNoise.editor().graph());
    // The warp reads a fractal and two displacements: a subtree of several nodes.
    const root = Object.keys(terrainGraph.nodes).find((n) => terrainGraph.nodes[n].type === "warp");
    const id = await page.evaluate((n) => window.gpuNoise.editor().idOf(n), root);
    await page.locator(`#node-${id} .gn-title small`).click();
    await page.click("#copy-node");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(JSON.parse(copied).output, root, "the system clipboard holds the subtree as a graph");
    // Another graph: marble. Paste with Ctrl+V over the canvas.
    await setControl(page, "#preset", "marble");
    const before = Object.keys(await page.evaluate(() => window.gpuNoise.editor().graph().nodes));
    await page.locator("#editor").focus();
    await page.keyboard.press("Control+V");
    await page.waitForTimeout(100);
    const after = await page.evaluate(() => window.gpuNoise.editor().graph());
    const added = Object.keys(after.nodes).filter((n) => !before.includes(n));
    assert.equal(added.length, Object.keys(JSON.parse(copied).nodes).length, `pasted ${added}`);
    const pastedRoot = added.find((n) => after.nodes[n].type === "warp");
    assert.deepEqual(shape(after, pastedRoot, inputsOf), shape(terrainGraph, root, inputsOf), "the pasted subtree lost a wire or a value");
    // Convert the pasted warp's fractal source (ridged) to another fractal: its name, its
    // reader and its own source and octaves stay.
    const fractal = [].concat(after.nodes[pastedRoot].source)[0];
    const [from, to] = [after.nodes[fractal].type, after.nodes[fractal].type === "billow" ? "fbm" : "billow"];
    assert.ok(["fbm", "ridged", "billow"].includes(from), from);
    await page.evaluate(([n, t]) => window.gpuNoise.editor().convert(n, t), [fractal, to]);
    await page.waitForTimeout(50);
    const converted = await page.evaluate(() => window.gpuNoise.editor().graph());
    assert.equal(converted.nodes[fractal].type, to);
    assert.equal(converted.nodes[fractal].source, after.nodes[fractal].source);
    assert.equal(converted.nodes[fractal].octaves, after.nodes[fractal].octaves);
    assert.deepEqual(converted.nodes[pastedRoot], after.nodes[pastedRoot], "the warp no longer reads it");
  });
});

test("the add menu opens at the cursor with a search; a wire dropped on the empty canvas makes a node already linked", async () => {
  await onTerrain(async (page) => {
    const editor = page.locator("#editor");
    await editor.scrollIntoViewIfNeeded();
    const box = await editor.boundingBox();
    // A new, empty graph: every spot of the canvas is free.
    await page.click("#clear-graph");
    await page.waitForTimeout(100);
    const [x, y] = [box.x + 200, box.y + 80];
    await page.mouse.click(x, y, { button: "right" });
    const menu = page.locator("#add-menu");
    assert.equal(await menu.isVisible(), true);
    const at = await menu.boundingBox();
    assert.ok(Math.abs(at.x - x) < 2 && Math.abs(at.y - y) < 2, JSON.stringify(at));
    const categories = await menu.locator("h4").allTextContents();
    assert.ok(categories.length >= 4, `grouped by category: ${categories}`);
    await page.keyboard.type("terr");
    assert.deepEqual(await menu.locator("button").allTextContents(), ["terrace"]);
    await page.keyboard.press("Enter");
    await page.waitForTimeout(100);
    const added = await page.evaluate(() => {
      const e = window.gpuNoise.editor();
      const [id, node] = e.nodes().at(-1);
      return { name: node.data.name, type: node.data.type, box: document.getElementById(`node-${id}`).getBoundingClientRect().toJSON() };
    });
    assert.equal(added.type, "terrace");
    assert.ok(Math.abs(added.box.x - x) < 30 && Math.abs(added.box.y - y) < 30, JSON.stringify(added.box));
    assert.equal(await menu.count(), 0, "the menu closes");
    // Drag a wire from the terrace's output and let it go on the empty canvas left of it.
    const out = page.locator(`#node-${await page.evaluate((n) => window.gpuNoise.editor().idOf(n), added.name)} .outputs .output`);
    const o = await out.boundingBox();
    const [dropX, dropY] = [box.x + 700, box.y + 120];
    await page.mouse.move(o.x + o.width / 2, o.y + o.height / 2);
    await page.mouse.down();
    await page.mouse.move(dropX, dropY, { steps: 8 });
    await page.mouse.up();
    await page.waitForSelector("#add-menu");
    await page.keyboard.type("abs");
    await page.keyboard.press("Enter");
    await page.waitForTimeout(100);
    const graph = await page.evaluate(() => window.gpuNoise.editor().graph());
    const linked = Object.entries(graph.nodes).find(([, f]) => f.type === "abs");
    assert.ok(linked, "no abs node");
    assert.equal(linked[1].source, added.name, "the new node does not read the wire's node");
  });
});

test("Fit brings every node into view; clicking a node's thumbnail shows that node in the main view", async () => {
  await onTerrain(async (page) => {
    const outside = () => page.evaluate(() => {
      const box = document.getElementById("editor").getBoundingClientRect();
      return [...document.querySelectorAll("#editor .drawflow-node")].filter((n) => {
        const r = n.getBoundingClientRect();
        return r.left < box.left - 1 || r.top < box.top - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1;
      }).length;
    });
    assert.ok((await outside()) > 0, "the preset already fits: the test shows nothing");
    await page.click("#fit-view");
    assert.equal(await outside(), 0, "a node is still out of view");
    // Thumbnail times are medians of three renders; a click on one makes its node the output.
    const name = await page.evaluate(() => {
      const g = window.gpuNoise.editor().graph();
      return Object.keys(g.nodes).find((n) => n !== g.output && g.nodes[n].type === "warp");
    });
    const id = await page.evaluate((n) => window.gpuNoise.editor().idOf(n), name);
    assert.match(await page.locator(`#node-${id} .gn-time`).getAttribute("title"), /median time of three renders/);
    await page.locator(`#node-${id} .gn-thumb`).click();
    await page.waitForFunction((n) => JSON.parse(window.gpuNoise.specText()).graph.output === n && !window.gpuNoise.page.rendering, name, { timeout: 120000 });
  });
});

test("the minimap shows every node and the view; a click on a node there brings it into view", async () => {
  await onTerrain(async (page) => {
    const state = () => page.evaluate(() => {
      const box = document.getElementById("editor").getBoundingClientRect();
      const inView = (n) => {
        const r = n.getBoundingClientRect();
        return r.left >= box.left - 1 && r.top >= box.top - 1 && r.right <= box.right + 1 && r.bottom <= box.bottom + 1;
      };
      const nodes = [...document.querySelectorAll("#editor .drawflow-node")];
      const names = nodes.map((n) => window.gpuNoise.editor().df.getNodeFromId(n.id.replace("node-", "")).data.name);
      return { outside: names.filter((_, k) => !inView(nodes[k])), count: nodes.length, drawn: Number(document.getElementById("minimap").dataset.nodes) };
    });
    const before = await state();
    assert.equal(before.drawn, before.count, "the minimap does not draw every node");
    assert.ok(before.outside.length > 0, "the preset already fits: the test shows nothing");
    const name = before.outside[0];
    await page.locator("#minimap").scrollIntoViewIfNeeded();
    const [x, y] = await page.evaluate((n) => window.gpuNoise.editor().minimap.pointOf(n), name);
    await page.mouse.click(x, y);
    await page.waitForTimeout(100);
    const after = await state();
    assert.ok(!after.outside.includes(name), `node ${name} is still out of view after the minimap click`);
    // The click moved the view only: no node was added or removed.
    assert.equal(after.count, before.count);
  });
});

test("a shared link and an exported spec carry the editor's layout: another browser opens the graph with its nodes where they were", async () => {
  const { browser, page, problems } = await terrain();
  let other = null;
  try {
    const name = await page.evaluate(() => Object.keys(window.gpuNoise.editor().graph().nodes)[1]);
    const moved = await dragNode(page, name, [-30, 70]);
    assert.match(page.url(), /&layout=/);
    // A fresh browser: no storage of this session, only the link.
    other = await openPage(false, page.url());
    assert.equal(await other.page.locator("#mode").inputValue(), "graph");
    assert.deepEqual(await other.page.evaluate((n) => window.gpuNoise.editor().positions()[n], name), moved);
    await other.browser.close();
    // The exported spec carries the layout: the tool renders it, and a fresh page that loads
    // the file puts the node where it was.
    const exported = await page.evaluate(() => window.gpuNoise.exportSpecText());
    assert.deepEqual(JSON.parse(exported).layout[name], moved);
    const file = path.join(served.scratch, "layout.json");
    fs.writeFileSync(file, exported);
    execFileSync(tool, ["render", "--spec", file, "--size", "16", "-o", path.join(served.scratch, "layout.png")]);
    other = await openPage(false, served.origin);
    await setControl(other.page, "#mode", "graph");
    await other.page.setInputFiles("#load-graph", file);
    await other.page.waitForFunction((n) => window.gpuNoise.editor().graph().nodes[n] !== undefined, name);
    assert.deepEqual(await other.page.evaluate((n) => window.gpuNoise.editor().positions()[n], name), moved);
    assert.deepEqual(problems, []);
    assert.deepEqual(other.problems, []);
  } finally {
    await other?.browser.close().catch(() => {});
    await browser.close();
  }
});

/** Node `name`'s thumbnail as RGBA bytes and its side. */
function thumbnailOf(page, name) {
  return page.evaluate((n) => {
    const id = window.gpuNoise.editor().idOf(n);
    const thumb = document.querySelector(`#node-${id} .gn-thumb`);
    return { side: thumb.width, rgba: Array.from(thumb.getContext("2d").getImageData(0, 0, thumb.width, thumb.height).data) };
  }, name);
}

/** Sets one of node `name`'s preview fields (`scale` or `seed`) as a user does, and waits for
 *  the thumbnails. */
async function setPreview(page, name, field, value) {
  const id = await page.evaluate((n) => window.gpuNoise.editor().idOf(n), name);
  const control = page.locator(`#node-${id} .gn-preview-${field}`);
  await control.scrollIntoViewIfNeeded();
  if (field === "scale") await control.selectOption(String(value));
  else {
    await control.fill(String(value));
    await control.dispatchEvent("change");
  }
  await thumbnailsDrawn(page);
  return control;
}

test("a node's preview settings: its area shows more of the world about the view's centre, its seed renders another world", async () => {
  await onTerrain(async (page) => {
    const output = await page.evaluate(() => window.gpuNoise.editor().graph().output);
    const view = await thumbnailOf(page, output);
    // 256 texels, k = 3: 86 thumbnail texels, about texel 43.
    assert.equal(view.side, 86);
    await setPreview(page, output, "scale", 2);
    const wide = await thumbnailOf(page, output);
    const at = (image, i, j) => image.rgba.slice(4 * (j * image.side + i), 4 * (j * image.side + i) + 3);
    let differ = 0;
    for (let v = -21; v <= 21; v++) {
      for (let u = -21; u <= 21; u++) {
        // Twice the view's width about the centre: texel 43 + u there is texel 43 + 2u here.
        assert.deepEqual(at(wide, 43 + u, 43 + v), at(view, 43 + 2 * u, 43 + 2 * v), `texel (${u}, ${v}) from the centre`);
      }
    }
    for (let n = 0; n < view.rgba.length; n++) differ += view.rgba[n] !== wide.rgba[n] ? 1 : 0;
    assert.ok(differ > view.rgba.length / 4, `the wider thumbnail shows another image (${differ} bytes differ)`);

    await setPreview(page, output, "scale", 1);
    const seeded = await setPreview(page, output, "seed", "7");
    const seven = await thumbnailOf(page, output);
    assert.notDeepEqual(seven.rgba, view.rgba, "seed 7 renders another world");
    // A seed that is not one stays in its field with the message; the thumbnail keeps seed 7.
    await setPreview(page, output, "seed", "7x");
    assert.equal(await seeded.getAttribute("aria-invalid"), "true");
    assert.match(await seeded.getAttribute("title"), /preview seed: "7x" is not a whole number/);
    assert.equal(await seeded.inputValue(), "7x");
    assert.deepEqual((await thumbnailOf(page, output)).rgba, seven.rgba);
    // The page's own seed 7 gives the same thumbnail with no preview seed; the other nodes
    // never took the preview seed.
    await setPreview(page, output, "seed", "");
    assert.deepEqual((await thumbnailOf(page, output)).rgba, view.rgba);
    await setControl(page, "#seed", 7);
    await thumbnailsDrawn(page);
    assert.deepEqual((await thumbnailOf(page, output)).rgba, seven.rgba);
  });
});
