// Serves web/www on localhost (WebGPU needs a secure context, and localhost is one) and prints
// the address. `bash web/preview` builds first; `PORT=9000 node web/serve.mjs` picks the port.
import http from "node:http";
import { fileURLToPath } from "node:url";
import sirv from "sirv";

const root = fileURLToPath(new URL("./www", import.meta.url));
const port = Number(process.env.PORT ?? 8080);
const files = sirv(root, { dev: true, extensions: ["html"] });
http
  .createServer((req, res) => files(req, res, () => {
    res.statusCode = 404;
    res.end("not found");
  }))
  .listen(port, "127.0.0.1", () => {
    console.log(`gpu-noise previewer: http://localhost:${port}/`);
  })
  .on("error", (e) => {
    console.error(`cannot serve on port ${port}: ${e.message} (set PORT to another)`);
    process.exit(2);
  });
