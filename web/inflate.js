// Reading and inflating a dropped or chosen log for `src/source/file.rs`.
//
// A gzip log is inflated by the browser's own DecompressionStream, several times faster than
// inflating in WebAssembly, in a small worker so that inflating the next batch overlaps decoding
// this one on the page's thread. The page falls back to the shared decoder's own inflater where
// there is no DecompressionStream and when the browser's inflater fails part-way.

// The file's bytes in batches of `{data, done, error}`: inflated when the file is gzip (a small
// `first` batch so the first frame shows at once, then `batch`-sized ones), else the file as it
// is, in one batch marked `plain`. Each batch owns its buffer, so it can be transferred.
//
// The file is read whole before inflating starts. Read as the inflater asked for it, the
// browser's thread that reads files got no time while both cores were busy inflating and
// decoding, and inflating stalled for 30-90 ms at a time waiting for input.
async function* fileBatches(file, first, batch) {
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    yield { data: null, done: true, error: 'cannot read the file: ' + ((e && e.message) || e) };
    return;
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    yield { data: bytes, done: true, error: null, plain: true };
    return;
  }
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  (async () => {
    try {
      for (let at = 0; at < bytes.length; at += 65536) {
        await writer.ready;
        writer.write(bytes.subarray(at, at + 65536)).catch(() => {});
      }
      await writer.close();
    } catch (e) {
      // The inflater failed: reading its output says why.
    }
  })();
  const reader = ds.readable.getReader();
  let parts = [], n = 0, want = first;
  const take = () => {
    let out = null;
    const p = parts[0];
    if (parts.length === 1 && p.byteOffset === 0 && p.byteLength === p.buffer.byteLength) {
      out = p;
    } else if (n > 0) {
      out = new Uint8Array(n);
      let at = 0;
      for (const q of parts) { out.set(q, at); at += q.length; }
    }
    parts = []; n = 0; want = batch;
    return out;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) { yield { data: take(), done: true, error: null }; return; }
      parts.push(value);
      n += value.length;
      if (n >= want) yield { data: take(), done: false, error: null };
    }
  } catch (e) {
    yield { data: take(), done: true, error: String((e && e.message) || e) };
  }
}

// Inflating runs in a worker so that inflating the next batch overlaps decoding this one. The
// worker keeps at most `credit` unread batches in flight, so a large file is not inflated into
// memory far ahead of the decoder.
const WORKER = `
${fileBatches}
let credit = 8, wake = null;
onmessage = async (e) => {
  if (e.data === 'ack') { credit++; if (wake) { wake(); wake = null; } return; }
  const { file, first, batch } = e.data;
  for await (const b of fileBatches(file, first, batch)) {
    while (credit === 0 && !b.done) await new Promise(r => { wake = r; });
    credit--;
    postMessage(b, b.data ? [b.data.buffer] : []);
  }
};
`;

// The same batches on this thread, where a worker cannot be started.
function inThread(file, first, batch) {
  const batches = fileBatches(file, first, batch);
  return {
    async next() {
      const r = await batches.next();
      return r.done ? { data: null, done: true, error: null } : r.value;
    },
    close() { batches.return().catch(() => {}); },
  };
}

// Starting a worker takes tens of milliseconds, longer than inflating and drawing the first
// frame: one is started ahead, while the page is idle, and replaced when it is used.
let spare = null;

function spawn() {
  try {
    const url = URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' }));
    const worker = new Worker(url);
    URL.revokeObjectURL(url);
    return worker;
  } catch (e) {
    return null;
  }
}

export function warm_inflater() {
  if (spare === null && typeof DecompressionStream !== 'undefined' && typeof Worker !== 'undefined') {
    spare = spawn();
  }
}

export function file_batches(file, first, batch) {
  if (typeof DecompressionStream === 'undefined') return null;
  let worker = spare || spawn();
  spare = null;
  if (!worker) {
    try { return inThread(file, first, batch); } catch (e) { return null; }
  }
  const queue = [], waiting = [];
  let ended = false;
  const deliver = (msg) => {
    if (ended) return;
    if (msg.done) { ended = true; worker.terminate(); setTimeout(warm_inflater, 0); }
    if (waiting.length) waiting.shift()(msg); else queue.push(msg);
  };
  worker.onmessage = (e) => deliver(e.data);
  worker.onerror = (e) => {
    e.preventDefault();
    deliver({ data: null, done: true, error: 'the inflating worker failed: ' + (e.message || 'unknown error') });
  };
  worker.postMessage({ file, first, batch });
  const ack = (msg) => { if (!msg.done) worker.postMessage('ack'); return msg; };
  return {
    next() {
      if (queue.length) return Promise.resolve(ack(queue.shift()));
      if (ended) return Promise.resolve({ data: null, done: true, error: null });
      return new Promise(r => waiting.push(msg => r(ack(msg))));
    },
    close() { if (!ended) { ended = true; worker.terminate(); setTimeout(warm_inflater, 0); } },
  };
}
