// The previewer's server (web/serve.mjs) against hostile requests: it answers each, and one bad
// request never takes it down for the next (a hostile probe killed it with one Range header).
// Needs only `npm ci --prefix web`, no browser and no wasm build.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { servableRange } from "../server.mjs";

const serve = fileURLToPath(new URL("../serve.mjs", import.meta.url));
let child;
let origin;

before(async () => {
  child = spawn(process.execPath, [serve], { env: { ...process.env, PORT: "0" } });
  origin = await new Promise((ok, fail) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/localhost:(\d+)\//.exec(out);
      if (m) ok(`http://127.0.0.1:${m[1]}`);
    });
    child.on("exit", (code) => fail(new Error(`web/serve.mjs exited with ${code}`)));
  });
});

after(() => child?.kill());

async function get(path, headers = {}) {
  const response = await fetch(`${origin}${path}`, { headers });
  return { status: response.status, body: await response.text() };
}

test("an inverted byte range is answered 416 and the server serves the next request", async () => {
  const whole = await get("/index.html");
  assert.equal(whole.status, 200);
  for (const range of ["bytes=100-50", "bytes=-", "bytes=5-4,0-1", "items=0-1", "bytes=x-y"]) {
    const bad = await get("/index.html", { Range: range });
    assert.equal(bad.status, 416, range);
    assert.equal(child.exitCode, null, `the server died on Range: ${range}`);
  }
  const part = await get("/index.html", { Range: "bytes=0-9" });
  assert.equal(part.status, 206);
  assert.equal(part.body, whole.body.slice(0, 10));
  const again = await get("/index.html");
  assert.equal(again.status, 200);
  assert.equal(again.body, whole.body);
});

test("a range past the end, a missing file and a traversal are answered, not fatal", async () => {
  assert.equal((await get("/index.html", { Range: "bytes=99999999-" })).status, 416);
  assert.equal((await get("/no-such-file.js")).status, 404);
  assert.equal((await get("/../../etc/passwd")).status, 404);
  assert.equal((await get("/index.html")).status, 200);
});

test("servableRange takes single ordered ranges only", () => {
  for (const ok of ["bytes=0-9", "bytes=5-", "bytes=-5", " bytes=3-3 "]) assert.ok(servableRange(ok), ok);
  for (const bad of ["bytes=9-0", "bytes=-", "bytes=0-1,2-3", "bits=0-1", ""]) {
    assert.ok(!servableRange(bad), bad);
  }
});
