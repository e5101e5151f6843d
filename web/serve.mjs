// Serves web/www on localhost (WebGPU needs a secure context, and localhost is one) and prints
// the address. `bash web/preview` builds first; `PORT=9000 node web/serve.mjs` picks the port
// (PORT=0: any free one).
import http from "node:http";
import { createHandler } from "./server.mjs";

const port = Number(process.env.PORT ?? 8080);
const server = http.createServer(createHandler());
server
  .on("clientError", (e, socket) => socket.destroy())
  .listen(port, "127.0.0.1", () => {
    console.log(`gpu-noise previewer: http://localhost:${server.address().port}/`);
  })
  .on("error", (e) => {
    console.error(`cannot serve on port ${port}: ${e.message} (set PORT to another)`);
    process.exit(2);
  });
