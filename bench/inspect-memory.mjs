// Reads a running Node process's memory from outside through the inspector protocol, for benches: the process is
// started with `--inspect=127.0.0.1:<port>` (a bench's own flag; hac's launcher sets none), and each reading
// connects, evaluates one expression in it, and disconnects.
import net from 'node:net';

/** A free loopback port for `--inspect`. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Evaluates `expression` (which returns JSON text) in the process listening on `port`, and parses the answer. */
export async function evaluateIn(port, expression) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const call = (id, method, params) =>
    new Promise((resolve, reject) => {
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.id !== id) return;
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result);
      };
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    const { result, exceptionDetails } = await call(1, 'Runtime.evaluate', {
      expression,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return JSON.parse(result.value);
  } finally {
    socket.close();
  }
}

/**
 * The heap as V8 sees it: what is committed for each space (MB), and the live heap, read after a full collection
 * (the inspector's own, so it is done only at the end of a measurement: it changes what follows).
 */
export async function heapReading(port, { collect = false } = {}) {
  if (collect) {
    const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const socket = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve) => (socket.onopen = resolve));
    await new Promise((resolve) => {
      socket.onmessage = (event) => JSON.parse(event.data).id === 1 && resolve();
      socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
    });
    socket.close();
  }
  return evaluateIn(
    port,
    `JSON.stringify({
      spaces: Object.fromEntries(process.getBuiltinModule('v8').getHeapSpaceStatistics()
        .map((s) => [s.space_name, { committed: s.physical_space_size, used: s.space_used_size }])),
      memory: process.memoryUsage(),
    })`,
  );
}

/** Where a process allocates, sampled between `start()` and `stop()` (collected objects included), by function. */
export async function allocationSampler(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve) => (socket.onopen = resolve));
  let next = 0;
  const call = (method, params) =>
    new Promise((resolve) => {
      const id = ++next;
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.id === id) resolve(message.result);
      };
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('HeapProfiler.enable');
  await call('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    /** Bytes allocated by each function (self), largest first, as `[bytes, "name file:line"]`. */
    async stop() {
      const { profile } = await call('HeapProfiler.stopSampling');
      socket.close();
      const by = new Map();
      const walk = (node) => {
        const frame = node.callFrame;
        const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;
        by.set(key, (by.get(key) ?? 0) + node.selfSize);
        node.children.forEach(walk);
      };
      walk(profile.head);
      return [...by].map(([key, bytes]) => [bytes, key]).sort((a, b) => b[0] - a[0]);
    },
  };
}
