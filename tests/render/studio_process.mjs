// Starts `shardreel studio` for the studio tests: on any free port, its URL read from the first
// line it prints; stop() sends SIGINT and resolves to the exit code.
import { spawn } from "node:child_process";

export async function startStudio(shardreel, args) {
  const server = spawn(shardreel, ["studio", ...args, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  server.stderr.on("data", (d) => (err += d));
  const exited = new Promise((done) => server.on("exit", (code) => done(code)));
  const url = await new Promise((done, fail) => {
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/[^ ]+\//);
      if (m) done(m[0]);
    });
    exited.then((code) => fail(new Error(`the studio exited with ${code}: ${err}`)));
    setTimeout(() => fail(new Error(`the studio printed no URL: ${out} ${err}`)), 20000);
  });
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => err,
    exited,
    stop: (signal = "SIGINT") => {
      server.kill(signal);
      return exited;
    },
  };
}
