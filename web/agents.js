// Agent files (debug logs, world models, the server's message log) for `src/agents/`: each is
// indexed by game time in one streaming pass in a worker, so a folder of gigabytes opens
// without the page's thread reading it; afterwards only the byte range of the time on screen
// is read (`read_range`), and a search reads each file once more in a worker.
//
// The work on the bytes is the shared library's, compiled to WebAssembly for the workers
// (`web/worker`, built by Trunk as `agents-worker.js` and `agents-worker_bg.wasm`): the index
// is `shared/agents/src/index.rs`'s `Indexer`, the same for a plain and a gzipped file. A gzip
// file is inflated as it is indexed and access points are noted (`shared/agents/src/gz.rs`),
// so that a range of its text is read again by inflating from the point before it, from the
// gzip file itself: nothing of its text is kept. A file is read in chunks, so a worker answers
// the page between them; two or more workers share the files, so that indexing and searching
// use the machine's cores.

// The worker's files sit beside the page's own, two folders above this snippet
// (`snippets/pitchside-web-HASH/agents.js`).
const GLUE = new URL('../../agents-worker.js', import.meta.url).href;
const WASM = new URL('../../agents-worker_bg.wasm', import.meta.url).href;

const WORKER = `
importScripts(GLUE);
const ready = wasm_bindgen({ module_or_path: WASM }).then(() => { store = new wasm_bindgen.Store(); });
let store = null;
// A file indexed here, by the number the store gave it: its File, whether it is gzip, and
// its reads one after another (each goes on from where the last one stopped).
const files = new Map();
// A read of a gzip file's range goes 256 KB at a time; a search of one 512 KB at a time
// (the worker asks).
const READ_CHUNK = 256 << 10;
const MAX_LINE = 1 << 20;

// The file's bytes as the browser streams them: a stream reads a file several times faster
// than slices read one after another, and its chunks (tens of KB) are let go at once.
async function* streamed(file) {
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

async function isGzip(file) {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

const message = (e) => String((e && e.message) || e);

async function index(job) {
  await ready;
  const file = job.file;
  const gz = await isGzip(file);
  const ix = new wasm_bindgen.IndexJob(job.kind, gz);
  let error = null, read = 0, lastReport = 0;
  try {
    for await (const chunk of streamed(file)) {
      const more = ix.push(chunk);
      read += chunk.length;
      if (read - lastReport >= (16 << 20)) { lastReport = read; postMessage({ id: job.id, progress: read }); }
      if (!more) break;
    }
  } catch (e) {
    error = 'cannot read the file: ' + message(e);
  }
  ix.finish();
  const out = {
    id: job.id, spans: ix.spans(), levels: ix.levels(), lines: ix.lines(), bad: ix.bad(),
    bytes: ix.bytes(), gz, error: error || ix.error() || null,
  };
  out.file_id = store.add(ix);
  files.set(out.file_id, { file, gz, reads: Promise.resolve() });
  ix.free();
  postMessage(out, [out.spans.buffer]);
}

// Text start..end of gzip file \`job.file_id\`: after the reads of it asked for before.
function read(job) {
  const f = files.get(job.file_id);
  if (!f) return Promise.reject(new Error('no such file in this worker'));
  const run = async () => {
    store.read_start(job.file_id, job.start, job.end);
    while (!store.read_step(job.file_id)) {
      const at = store.read_needed(job.file_id);
      const buf = at < f.file.size ? await f.file.slice(at, at + READ_CHUNK).arrayBuffer() : new ArrayBuffer(0);
      store.read_push(job.file_id, new Uint8Array(buf));
    }
    const bytes = store.read_take(job.file_id);
    postMessage({ id: job.id, bytes }, [bytes.buffer]);
  };
  const done = f.reads.then(run);
  f.reads = done.catch(() => {});
  return done;
}

// The spans (positions in the file's index) whose text holds \`job.needle\`, ASCII letters in
// any case: from the file's words when they answer, else reading the bytes the store asks for
// (the next chunk read while this one is searched). The files of one search (\`job.serial\`)
// come here one after another: a cycle found in one is not looked for in the next, nor one
// another worker found (\`job.share\` messages). The cycles found go back with the spans.
async function search(job) {
  await ready;
  const f = files.get(job.file_id);
  if (!f) throw new Error('no such file in this worker');
  const id = job.file_id;
  if (!store.search_start(id, job.needle, job.serial)) {
    if (store.search_reads_all_of_gzip(id)) {
      // The whole gzip file as one stream, inflated here as it comes (this worker's inflater
      // is about twice as fast as the browser's \`DecompressionStream\`).
      let more = true;
      for await (const chunk of streamed(f.file)) {
        more = store.search_push(id, chunk);
        if (!more) break;
      }
      if (more) store.search_push(id, new Uint8Array(0));
    }
    await readAsAsked(f, id);
  }
  const spans = store.search_take(id);
  const cycles = store.cycles_of(id, spans);
  postMessage({ id: job.id, spans, cycles }, [spans.buffer, cycles.buffer]);
}

// Gives the search of file \`id\` the bytes it asks for until it is done: a plain file as one
// stream from where it wants bytes (kept while it wants the bytes that follow: a stream reads
// a file several times faster than slices one after another), a gzip file's compressed bytes
// in slices, the next read while this one is inflated.
async function readAsAsked(f, id) {
  let reader = null, pos = -1, ahead = null;
  const slice = (at, len) => at < f.file.size ? f.file.slice(at, at + len).arrayBuffer() : Promise.resolve(new ArrayBuffer(0));
  try {
    for (;;) {
      const want = store.search_needed(id);
      if (want.length === 0) break;
      const [at, len] = want;
      if (f.gz) {
        const buf = ahead && ahead.at === at && ahead.len === len ? await ahead.bytes : await slice(at, len);
        ahead = { at: at + len, len, bytes: slice(at + len, len) };
        store.search_push(id, new Uint8Array(buf));
        continue;
      }
      if (reader === null || pos !== at) {
        if (reader) reader.cancel();
        reader = f.file.slice(at).stream().getReader();
        pos = at;
      }
      const { done, value } = await reader.read();
      const chunk = done ? new Uint8Array(0) : value;
      pos += chunk.length;
      store.search_push(id, chunk);
    }
  } finally {
    if (reader) reader.cancel().catch(() => {});
  }
}

// A file's text in chunks: the file, or it inflated by the browser.
async function* chunks(file) {
  let stream = file.stream();
  if (await isGzip(file)) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

// The whole lines (at most \`job.limit\`) that hold \`job.grep\` as written: the says of a
// message log, read in one pass without keeping the file.
async function grep(job) {
  const needle = new TextEncoder().encode(job.grep);
  const dec = new TextDecoder();
  const lines = [];
  let tail = new Uint8Array(0);
  const scan = (buf, s, e) => {
    for (let k = buf.indexOf(needle[0], s); k >= 0 && k + needle.length <= e; k = buf.indexOf(needle[0], k + 1)) {
      let ok = true;
      for (let j = 1; j < needle.length; j++) if (buf[k + j] !== needle[j]) { ok = false; break; }
      if (ok) return true;
    }
    return false;
  };
  for await (const value of chunks(job.file)) {
    const buf = new Uint8Array(tail.length + value.length);
    buf.set(tail, 0);
    buf.set(value, tail.length);
    let s = 0;
    for (let n = buf.indexOf(10, s); n >= 0; n = buf.indexOf(10, s)) {
      if (scan(buf, s, n) && lines.length < job.limit) lines.push(dec.decode(buf.subarray(s, n)));
      s = n + 1;
    }
    // A line longer than any real one is not kept whole: its start goes.
    tail = buf.length - s > MAX_LINE ? new Uint8Array(0) : buf.slice(s);
    if (lines.length >= job.limit) break;
  }
  if (tail.length && lines.length < job.limit && scan(tail, 0, tail.length)) lines.push(dec.decode(tail));
  postMessage({ id: job.id, lines });
}

// Indexing and searching run one after another (each reads a whole file); reads of ranges
// run between their chunks.
let heavy = Promise.resolve();
onmessage = (e) => {
  const job = e.data;
  const fail = (err) => postMessage({ id: job.id, error: message(err) });
  if (job.read) {
    ready.then(() => read(job)).catch(fail);
    return;
  }
  // Another worker's finds for a search: taken between this one's chunks, not after its queue.
  if (job.share !== undefined) {
    ready.then(() => store.share_found(job.share, job.cycles)).catch(() => {});
    return;
  }
  const work = job.grep !== undefined ? grep : job.needle !== undefined ? search : index;
  heavy = heavy.then(() => work(job)).catch(fail);
};
`;

// The workers, each with the jobs it was given and not yet answered (and their bytes, so
// that a file goes to the least busy one).
const pool = [];
let nextId = 1;

function poolSize() {
  const cores = (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 2;
  return Math.min(4, Math.max(2, cores - 1));
}

function spawn() {
  const script = `const GLUE = ${JSON.stringify(GLUE)}, WASM = ${JSON.stringify(WASM)};\n` + WORKER;
  const url = URL.createObjectURL(new Blob([script], { type: 'text/javascript' }));
  const w = { worker: new Worker(url), pending: new Map(), load: 0 };
  URL.revokeObjectURL(url);
  w.worker.onmessage = (e) => {
    const msg = e.data;
    const p = w.pending.get(msg.id);
    if (!p) return;
    if (msg.progress !== undefined) { if (p.progress) p.progress(msg.progress); return; }
    w.pending.delete(msg.id);
    w.load -= p.load;
    p.resolve(msg);
  };
  w.worker.onerror = (e) => {
    e.preventDefault();
    fail(w, 'the agents\' worker failed: ' + (e.message || 'unknown error'));
  };
  return w;
}

function fail(w, why) {
  for (const p of w.pending.values()) p.resolve({ error: why });
  w.pending.clear();
  w.load = 0;
  w.worker.terminate();
  const i = pool.indexOf(w);
  if (i >= 0) pool[i] = null;
}

// Worker `k` of the pool, started when first wanted; or the least busy one.
function worker(k) {
  if (k === undefined) {
    const n = poolSize();
    for (let i = 0; i < n; i++) if (!pool[i]) pool[i] = spawn();
    k = 0;
    for (let i = 1; i < n; i++) if (pool[i].load < pool[k].load) k = i;
  } else if (!pool[k]) {
    pool[k] = spawn();
  }
  return [k, pool[k]];
}

function run(k, job, load, progress, transfer) {
  return new Promise((resolve) => {
    let w;
    try { [k, w] = worker(k); } catch (e) { resolve({ error: 'cannot start a worker: ' + e }); return; }
    job.id = nextId++;
    w.pending.set(job.id, { resolve, progress, load });
    w.load += load;
    w.worker.postMessage(job, transfer || []);
  }).then((msg) => { msg.worker = k; return msg; });
}

// Indexes `file` (kind 0: debug log, 1: world models, 2: message log). Resolves to
// `{spans: Float64Array [cycle, stopped, start, end, firstLine]…, levels, lines, bad, bytes,
// gz, text, error}`; `text` is what `read_range` and the searches take: the file, whether it
// is gzip, and the worker that indexed it (which keeps its words, and a gzip file's access
// points) with its number there.
export function index_agent_file(file, kind, progress) {
  return run(undefined, { file, kind }, file.size, progress).then((msg) => {
    if (msg.file_id !== undefined && msg.file_id !== null) {
      msg.text = { file, gz: !!msg.gz, worker: msg.worker, file_id: msg.file_id };
    }
    return msg;
  });
}

// Bytes `start..end` of a file's text: a slice of a plain file, or inflated by the worker that
// holds the gzip file's access points. Rejects when they cannot be read.
export async function read_range(text, start, end) {
  const file = text instanceof Blob ? text : text.file;
  if (text instanceof Blob || !text.gz) return new Uint8Array(await file.slice(start, end).arrayBuffer());
  const msg = await run(text.worker, { read: true, file_id: text.file_id, start, end }, 0);
  if (msg.error) throw new Error(msg.error);
  return msg.bytes;
}

// The spans (positions in the file's index) whose text holds `needle`, ASCII letters in any
// case, `{spans: Uint32Array, error}`, from the worker that indexed the file; `serial` numbers
// one search of several files: a span whose cycle another file of the same search already
// gave may be left out (the page wants each cycle once).
//
// The cycles a file gave go at once to the other workers: those searching their files for the
// same text then skip them too (a text in most cycles leaves the later files little to read).
export function search_agent_file(text, needle, serial) {
  return run(text.worker, { file_id: text.file_id, needle, serial }, text.file.size).then((msg) => {
    if (msg.cycles && msg.cycles.length) {
      for (let k = 0; k < pool.length; k++) {
        if (k !== msg.worker && pool[k]) pool[k].worker.postMessage({ share: serial, cycles: msg.cycles });
      }
    }
    return msg;
  });
}

// The lines of a file's text that hold `needle` (as written), at most `limit`: `{lines}`.
export function grep_agent_file(text, needle, limit) {
  const file = text instanceof Blob ? text : text.file;
  return run(undefined, { file, grep: needle, limit }, file.size);
}

// Stops the workers and forgets what they hold (another match was opened): their memory goes
// with them. Jobs under way resolve with an error.
export function reset_agent_workers() {
  for (const w of pool) if (w) fail(w, 'stopped: other files were opened');
  pool.length = 0;
}

// Every file of a drop, folders walked (one level of nesting and more): a folder of a match's
// logs dropped whole gives its files. Resolves to an array of File.
export async function dropped_files(dt) {
  const entries = [];
  if (dt.items) {
    for (const item of dt.items) {
      const entry = item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
      if (entry) entries.push(entry);
    }
  }
  if (!entries.length) return Array.from(dt.files || []);
  const out = [];
  const readAll = (dir) => new Promise((resolve) => {
    const reader = dir.createReader(), all = [];
    const more = () => reader.readEntries((batch) => {
      if (!batch.length) { resolve(all); return; }
      all.push(...batch); more();
    }, () => resolve(all));
    more();
  });
  const walk = async (entry, depth) => {
    if (entry.isFile) {
      await new Promise((resolve) => entry.file((f) => { out.push(f); resolve(); }, () => resolve()));
    } else if (entry.isDirectory && depth < 4) {
      for (const e of await readAll(entry)) await walk(e, depth + 1);
    }
  };
  for (const e of entries) await walk(e, 0);
  return out;
}
