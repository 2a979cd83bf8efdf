/**
 * recheck, asked synchronously with a deadline it cannot overrun. recheck's own `checkSync` waits on its agent
 * with no limit: when the native agent dies on a thread of its own (a repetition count over 2^31 throws
 * NumberFormatException there), the answer never comes and the build step waits forever. Here the question goes
 * to a worker thread running recheck's async `check`; this thread blocks on a shared flag for at most `waitMs`,
 * and a worker that has not answered by then is terminated (the next question starts a fresh one). No answer is
 * an answer too: `undefined`, which the caller treats as "not certified".
 */
import { createRequire } from "node:module";
import { MessageChannel, Worker, receiveMessageOnPort } from "node:worker_threads";
import type { Diagnostics } from "recheck";

const require = createRequire(import.meta.url);

/** The worker: CommonJS source (eval'd), so it runs the same from the TypeScript sources and from dist. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { check } = require(workerData.recheck);
parentPort.on("message", async (m) => {
  let result;
  try {
    result = await check(m.source, m.flags, m.params);
  } catch (e) {
    result = { source: m.source, flags: m.flags, status: "unknown", error: { kind: "crash", message: String(e && e.message || e) } };
  }
  try { m.port.postMessage(result); } catch {}
  Atomics.store(m.done, 0, 1);
  Atomics.notify(m.done, 0);
});
`;

let worker: Worker | undefined;

function checker(): Worker {
  if (worker === undefined) {
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { recheck: require.resolve("recheck") } });
    // a worker kept for later questions must not keep the process alive
    worker.unref();
  }
  return worker;
}

/**
 * recheck's verdict on `source` with `flags`, giving recheck `timeoutMs` for its analysis; undefined when no
 * answer came within `timeoutMs` plus a second of grace (recheck's agent starts in ~0.2 s on first use).
 */
export function recheckWithin(source: string, flags: string, timeoutMs: number): Diagnostics | undefined {
  const w = checker();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  try {
    w.postMessage({ source, flags, params: { timeout: Math.max(1, Math.floor(timeoutMs)) }, port: port2, done }, [port2]);
    const waited = Atomics.wait(done, 0, 0, timeoutMs + 1_000);
    const answer = receiveMessageOnPort(port1);
    if (waited === "timed-out" || answer === undefined) {
      void w.terminate();
      worker = undefined;
      return undefined;
    }
    return answer.message as Diagnostics;
  } finally {
    port1.close();
  }
}
