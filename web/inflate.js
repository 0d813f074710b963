// Reading and inflating a dropped or chosen log, or downloading one, for `src/source/file.rs`.
//
// A gzip log is inflated by the browser's own DecompressionStream, several times faster than
// inflating in WebAssembly, in a small worker so that inflating the next batch overlaps decoding
// this one on the page's thread. The page falls back to the shared decoder's own inflater where
// there is no DecompressionStream and when the browser's inflater fails part-way.

// Splits a stream of byte chunks into batches of `{data, done, error, loaded, total}`: a small
// `first` batch so the first frame shows at once, then `batch`-sized ones. `progress()` says how
// much of the input has been read. Each batch owns its buffer, so it can be transferred.
async function* batched(reader, first, batch, progress) {
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
      if (done) { yield { data: take(), done: true, error: null, ...progress() }; return; }
      parts.push(value);
      n += value.length;
      if (n >= want) yield { data: take(), done: false, error: null, ...progress() };
    }
  } catch (e) {
    yield { data: take(), done: true, error: String((e && e.message) || e), ...progress() };
  }
}

// A dropped or chosen file's bytes in batches: inflated when the file is gzip, else the file as
// it is, in one batch marked `plain`.
//
// The file is read whole before inflating starts. Read as the inflater asked for it, the
// browser's thread that reads files got no time while both cores were busy inflating and
// decoding, and inflating stalled for 30-90 ms at a time waiting for input. A file larger than
// any real game log (a game is 5 MB gzipped, 60 MB as JSON) is streamed instead, as a download
// is: read whole, a gigabyte would sit in the browser's memory, twice.
const WHOLE_FILE_MAX = 128 << 20;
async function* fileBatches(file, first, batch) {
  if (file.size > WHOLE_FILE_MAX) {
    yield* streamBatches(file.stream().getReader(), file.size, first, batch);
    return;
  }
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    yield { data: null, done: true, error: 'cannot read the file: ' + ((e && e.message) || e) };
    return;
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    yield { data: bytes, done: true, error: null, plain: true, loaded: bytes.length, total: bytes.length };
    return;
  }
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  let written = 0;
  (async () => {
    try {
      for (let at = 0; at < bytes.length; at += 65536) {
        await writer.ready;
        const piece = bytes.subarray(at, at + 65536);
        writer.write(piece).then(() => { written += piece.length; }, () => {});
      }
      await writer.close();
    } catch (e) {
      // The inflater failed: reading its output says why.
    }
  })();
  yield* batched(ds.readable.getReader(), first, batch, () => ({ loaded: written, total: bytes.length }));
}

// A log on the web, downloaded as a stream and decoded as it arrives: inflated on the way when
// it is gzip. `loaded` counts the bytes received, `total` is the announced size (0 if none). A
// download that cannot start says how: `fetchFailed` (no answer, or not allowed to read it:
// CORS) or `status` (an HTTP error).
async function* urlBatches(url, first, batch) {
  let res;
  try {
    res = await fetch(url);
  } catch (e) {
    yield { data: null, done: true, error: String((e && e.message) || e), fetchFailed: true };
    return;
  }
  if (!res.ok || !res.body) {
    yield { data: null, done: true, error: ('HTTP ' + res.status + ' ' + res.statusText).trim(), status: res.status };
    return;
  }
  const total = Number(res.headers.get('content-length')) || 0;
  yield* streamBatches(res.body.getReader(), total, first, batch);
}

// Bytes from `body` (a stream reader) in batches, inflated on the way when they are gzip;
// `total` is the size expected (0 if unknown).
async function* streamBatches(body, total, first, batch) {
  let loaded = 0;
  // The first bytes say whether the log is gzip.
  let head = new Uint8Array(0), ended = false;
  try {
    while (head.length < 2) {
      const { done, value } = await body.read();
      if (done) { ended = true; break; }
      loaded += value.length;
      const joined = new Uint8Array(head.length + value.length);
      joined.set(head); joined.set(value, head.length);
      head = joined;
    }
  } catch (e) {
    yield { data: head.length ? head : null, done: true, error: String((e && e.message) || e), loaded, total };
    return;
  }
  const rest = new ReadableStream({
    start(c) { if (head.length) c.enqueue(head); if (ended) c.close(); },
    async pull(c) {
      const { done, value } = await body.read();
      if (done) { c.close(); return; }
      loaded += value.length;
      c.enqueue(value);
    },
    cancel(reason) { return body.cancel(reason); },
  }, { highWaterMark: 0 });
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b && typeof DecompressionStream !== 'undefined';
  const stream = gzip ? rest.pipeThrough(new DecompressionStream('gzip')) : rest;
  yield* batched(stream.getReader(), first, batch, () => ({ loaded, total }));
}

// Inflating runs in a worker so that inflating the next batch overlaps decoding this one. The
// worker keeps at most `credit` unread batches in flight, so a large file is not inflated into
// memory far ahead of the decoder.
const WORKER = `
${batched}
const WHOLE_FILE_MAX = ${WHOLE_FILE_MAX};
${fileBatches}
${urlBatches}
${streamBatches}
let credit = 8, wake = null;
onmessage = async (e) => {
  if (e.data === 'ack') { credit++; if (wake) { wake(); wake = null; } return; }
  const { file, url, first, batch } = e.data;
  const source = url ? urlBatches(url, first, batch) : fileBatches(file, first, batch);
  for await (const b of source) {
    while (credit === 0 && !b.done) await new Promise(r => { wake = r; });
    credit--;
    postMessage(b, b.data ? [b.data.buffer] : []);
  }
};
`;

// The same batches on this thread, where a worker cannot be started.
function inThread(batches) {
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
  return inWorker({ file, first, batch }, () => fileBatches(file, first, batch));
}

// A log on the web (`url` relative to the page), downloaded and decoded as it arrives. Without
// DecompressionStream a gzip log comes as it is, and the page's decoder inflates it.
export function url_batches(url, first, batch) {
  const absolute = new URL(url, location.href).href;
  return inWorker({ url: absolute, first, batch }, () => urlBatches(absolute, first, batch));
}

// Runs `job` in the spare worker (or a new one), else on this thread.
function inWorker(job, here) {
  let worker = spare || spawn();
  spare = null;
  if (!worker) {
    try { return inThread(here()); } catch (e) { return null; }
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
  worker.postMessage(job);
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
