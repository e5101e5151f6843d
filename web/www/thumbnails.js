// The node editor's thumbnails: each node's own output over the whole view (the nodes that feed
// it, on the CPU twin through the editor's `thumbnail`), sources first, one node per task so the
// page stays responsive, each with the node's own preview settings (area and seed); a node whose
// own render fails shows its error, and the nodes that read it wait on it.

/** Draws every node's thumbnail for thumbnail pass `pass` of `editor` (an edit starts a new
 *  pass, which stops this one). */
export async function drawThumbnails(editor, pass) {
  const graph = editor.graph();
  const state = {}; // name -> "ok" | "failed" | "waits"
  const ids = new Map(editor.nodes().map(([id, n]) => [n.data.name, id]));
  for (const name of editor.sourcesFirst(graph.nodes)) {
    await new Promise((ok) => setTimeout(ok, 0));
    if (pass !== editor.thumbnails) return;
    const element = document.querySelector(`#node-${ids.get(name)}`);
    if (!element) continue;
    editor.wirePreview(element, name);
    const failedInput = editor.inputsOf(graph.nodes[name]).find((n) => state[n] !== "ok" && graph.nodes[n]);
    state[name] = failedInput ? "waits" : drawThumbnail(editor, element, graph, name);
    if (failedInput) showThumbnailState(element, "waits", `waits on "${failedInput}"`, `its input "${failedInput}" has no image`);
  }
}

/** Draws node `name`'s thumbnail into its element: "ok" or "failed". Its time is the median
 *  of three renders (one render's time on a busy page says little). */
function drawThumbnail(editor, element, graph, name) {
  try {
    const subgraph = editor.feeding(graph, name);
    const preview = editor.previewOf(name);
    const shots = [0, 1, 2].map(() => editor.thumbnail(subgraph, preview));
    const shot = shots[0];
    shot.ms = shots.map((s) => s.ms).sort((a, b) => a - b)[1];
    const image = new ImageData(new Uint8ClampedArray(shot.rgba.buffer), shot.width, shot.height);
    const canvas = element.querySelector(".gn-thumb");
    canvas.width = shot.width;
    canvas.height = shot.height;
    canvas.getContext("2d").putImageData(image, 0, 0);
    showThumbnailState(element, "ok", `${shot.ms.toFixed(1)} ms`, "the median time of three renders of this node's thumbnail on the CPU twin; click the image to make the node the output");
    if (!canvas.dataset.wired) {
      canvas.dataset.wired = "1";
      canvas.style.cursor = "pointer";
      canvas.addEventListener("click", () => editor.setOutput(element.querySelector("[df-name]").value));
    }
    return "ok";
  } catch (e) {
    showThumbnailState(element, "failed", "error", String(e.message ?? e));
    return "failed";
  }
}

/** A node's thumbnail state: its class (`gn-failed`, `gn-waits`), its line and that line's
 *  tooltip. */
function showThumbnailState(element, state, line, title) {
  element.classList.toggle("gn-failed", state === "failed");
  element.classList.toggle("gn-waits", state === "waits");
  const time = element.querySelector(".gn-time");
  time.textContent = line;
  time.title = title;
}
