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

/** One connection to the inspector of the process listening on `port`: `call(method, params)`, then `close()`. */
async function inspectorSession(port) {
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      socket.onmessage = (event) => {
        const message = JSON.parse(event.data);
        if (message.id !== id) return;
        if (message.error) reject(new Error(message.error.message));
        else resolve(message.result);
      };
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { call, close: () => socket.close() };
}

/** Evaluates `expression` (which returns JSON text) in the process listening on `port`, and parses the answer. */
export async function evaluateIn(port, expression) {
  const session = await inspectorSession(port);
  try {
    const { result, exceptionDetails } = await session.call('Runtime.evaluate', {
      expression,
      returnByValue: true,
    });
    if (exceptionDetails) throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
    return JSON.parse(result.value);
  } finally {
    session.close();
  }
}

/**
 * The heap as V8 sees it: what is committed for each space (MB), and the live heap, read after a full collection
 * (the inspector's own, so it is done only at the end of a measurement: it changes what follows).
 */
export async function heapReading(port, { collect = false } = {}) {
  if (collect) {
    const session = await inspectorSession(port);
    await session.call('HeapProfiler.collectGarbage');
    session.close();
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

/** `name file:line` of a profile node's function. */
const where = (frame) =>
  `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`;

/** Where a process allocates, sampled between `start()` and `stop()` (collected objects included), by function. */
export async function allocationSampler(port) {
  const session = await inspectorSession(port);
  await session.call('HeapProfiler.enable');
  await session.call('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    /** Bytes allocated by each function (self), largest first, as `[bytes, "name file:line"]`. */
    async stop() {
      const { profile } = await session.call('HeapProfiler.stopSampling');
      session.close();
      const by = new Map();
      const walk = (node) => {
        by.set(where(node.callFrame), (by.get(where(node.callFrame)) ?? 0) + node.selfSize);
        node.children.forEach(walk);
      };
      walk(profile.head);
      return [...by].map(([key, bytes]) => [bytes, key]).sort((a, b) => b[0] - a[0]);
    },
  };
}

/** Where a process's main thread spends its time between `start` and `stop()`, sampled every 250 µs, by function. */
export async function cpuProfiler(port) {
  const session = await inspectorSession(port);
  await session.call('Profiler.enable');
  await session.call('Profiler.setSamplingInterval', { interval: 250 });
  await session.call('Profiler.start');
  return {
    /** Milliseconds spent in each function itself (idle left out), most first, as `[ms, "name file:line"]`. */
    async stop() {
      const { profile } = await session.call('Profiler.stop');
      session.close();
      const self = new Map(profile.nodes.map((node) => [node.id, 0]));
      profile.samples.forEach((id, i) => self.set(id, self.get(id) + (profile.timeDeltas[i] ?? 0) / 1000));
      const by = new Map();
      for (const node of profile.nodes) {
        if (node.callFrame.functionName === '(idle)') continue;
        by.set(where(node.callFrame), (by.get(where(node.callFrame)) ?? 0) + self.get(node.id));
      }
      return [...by].map(([key, ms]) => [ms, key]).sort((a, b) => b[0] - a[0]);
    },
  };
}
