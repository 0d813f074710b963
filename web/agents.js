// Agent files (debug logs, world models, the server's message log) for `src/agents/`: each is
// indexed by game time in one streaming pass in a worker, so a folder of gigabytes opens
// without the page's thread reading it; afterwards only the byte range of the time on screen
// is read (`read_range`), and a search streams the file once more in a worker.
//
// The index is the one `shared/src/agent/index.rs` makes (`Indexer`), line for line: the same
// spans, levels and counts; the browser test checks the two against each other on real files.
// A gzip file is inflated as it is indexed and its text kept in blocks compressed one by one,
// so that the range on screen is read by inflating one block, not the whole file.

const WORKER = `
const MAX_LINE = 1 << 20;
const BLOCK = 4 << 20;

// CYCLE,STOPPED at buf[s..e]: [cycle, stopped, index after it] or null (1-9 digits each).
function prefix(buf, s, e) {
  let i = s, c = 0, n = 0;
  while (i < e && n < 10 && buf[i] >= 48 && buf[i] <= 57) { c = c * 10 + buf[i] - 48; i++; n++; }
  if (n === 0 || n > 9 || i >= e || buf[i] !== 44) return null;
  i++;
  let st = 0, m = 0;
  while (i < e && m < 10 && buf[i] >= 48 && buf[i] <= 57) { st = st * 10 + buf[i] - 48; i++; m++; }
  if (m === 0 || m > 9) return null;
  return [c, st, i];
}

function startsWith(buf, s, e, text) {
  if (e - s < text.length) return false;
  for (let k = 0; k < text.length; k++) if (buf[s + k] !== text.charCodeAt(k)) return false;
  return true;
}

// A debug log line's level after its time (" LEVEL "), as unsigned bits, or 0.
function level(buf, i, e) {
  if (i >= e || buf[i] !== 32) return 0;
  i++;
  let neg = false;
  if (buf[i] === 45 || buf[i] === 43) { neg = buf[i] === 45; i++; }
  let v = 0, n = 0;
  while (i < e && buf[i] >= 48 && buf[i] <= 57 && n < 12) { v = v * 10 + buf[i] - 48; i++; n++; }
  if (n === 0 || n >= 12 || (i < e && buf[i] !== 32)) return 0;
  if (neg) v = -v;
  if (v < -2147483648 || v > 4294967295) return 0;
  return v;
}

function indexer(kind) {
  const spans = [];
  let lines = 0, bad = 0, levels = 0, offset = 0;
  let carry = [], carryLen = 0, skipping = false, cur = null, step = null;

  function close(s) { spans.push(s[0], s[1], s[2], s[3], s[4]); }
  function extend(end) { if (cur) cur[3] = end; }
  function line(buf, s, e, start, end) {
    lines++;
    const number = lines;
    if (e > s && buf[e - 1] === 13) e--;
    if (e === s) { extend(end); return; }
    let time = null;
    if (kind === 0) {
      const t = prefix(buf, s, e);
      if (t) {
        // LEVEL_ANY (-1) is no category of its own.
        const l = level(buf, t[2], e);
        if (l !== -1 && l !== 4294967295) levels |= l;
        time = t;
      }
      else if (cur === null) bad++;
    } else if (kind === 2) {
      const t = prefix(buf, s, e);
      if (t) time = t; else bad++;
    } else {
      if (startsWith(buf, s, e, '%% step ')) {
        let i = s + 8, n = 0, v = 0;
        while (i < e && n < 10 && buf[i] >= 48 && buf[i] <= 57) { v = v * 10 + buf[i] - 48; i++; n++; }
        if (n > 0 && n <= 9) { step = [start, number, v]; return; }
      }
      if (startsWith(buf, s, e, '%% debug [')) {
        const b = s + 10, h = Math.min(e, b + 96);
        let found = null;
        for (let k = b; k + 6 <= h; k++) {
          if (startsWith(buf, k, h, '(time ')) { found = prefix(buf, k + 6, h); break; }
        }
        time = found || (step ? [step[2], 0] : [0, 0]);
      } else {
        bad++;
      }
    }
    let st = start, num = number;
    if (step) { st = step[0]; num = step[1]; step = null; }
    if (time && cur && cur[0] === time[0] && cur[1] === time[1]) extend(end);
    else if (time) { if (cur) close(cur); cur = [time[0], time[1], st, end, num]; }
    else extend(end);
  }
  function joined(extra) {
    const out = new Uint8Array(carryLen + extra.length);
    let at = 0;
    for (const p of carry) { out.set(p, at); at += p.length; }
    out.set(extra, at);
    carry = []; carryLen = 0;
    return out;
  }
  return {
    push(chunk) {
      let at = offset, pos = 0;
      offset += chunk.length;
      for (;;) {
        const n = chunk.indexOf(10, pos);
        if (n < 0) break;
        const len = n - pos, end = at + len + 1;
        if (skipping) skipping = false;
        else if (carryLen + len > MAX_LINE) { carry = []; carryLen = 0; lines++; bad++; }
        else if (carryLen === 0) line(chunk, pos, n, end - len - 1, end);
        else { const l = joined(chunk.subarray(pos, n)); line(l, 0, l.length, end - l.length - 1, end); }
        at = end; pos = n + 1;
      }
      const rest = chunk.subarray(pos);
      if (!skipping) {
        if (carryLen + rest.length > MAX_LINE) { carry = []; carryLen = 0; skipping = true; lines++; bad++; }
        else if (rest.length) { carry.push(rest.slice()); carryLen += rest.length; }
      }
    },
    finish() {
      if (carryLen && !skipping) {
        const l = joined(new Uint8Array(0));
        line(l, 0, l.length, offset - l.length, offset);
      }
      if (cur) { close(cur); cur = null; }
      return { spans: new Float64Array(spans), levels: levels >>> 0, lines, bad, bytes: offset };
    },
  };
}

async function index(job) {
  const file = job.file;
  let stream = file.stream();
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gz = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  if (gz) stream = stream.pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const ix = indexer(job.kind);
  // A gzip file's text is kept in blocks, each compressed again on its own so that any block
  // can be inflated alone: held at about the size of the .gz, not of its text.
  const blocks = [], packing = [];
  let parts = [], partLen = 0, blockStart = 0, error = null, lastReport = 0, read = 0;
  const keep = async () => {
    if (!partLen) return;
    const start = blockStart, end = blockStart + partLen, raw = new Blob(parts);
    parts = []; partLen = 0; blockStart = end;
    const i = blocks.length;
    blocks.push(null);
    packing.push(new Response(raw.stream().pipeThrough(new CompressionStream('deflate-raw')))
      .blob().then((blob) => { blocks[i] = { start, end, blob }; }));
    // At most a few blocks waiting to be packed, so their text is not all held at once.
    if (packing.length >= 4) await packing.shift();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      ix.push(value);
      read += value.length;
      if (gz) { parts.push(value); partLen += value.length; if (partLen >= BLOCK) await keep(); }
      if (read - lastReport >= (8 << 20)) { lastReport = read; postMessage({ id: job.id, progress: read }); }
    }
  } catch (e) {
    error = String((e && e.message) || e);
  }
  await keep();
  await Promise.all(packing);
  const out = ix.finish();
  out.id = job.id;
  out.error = error;
  out.gz = gz;
  out.text = gz ? { packed: true, blocks } : null;
  postMessage(out, [out.spans.buffer]);
}

// The text of a file: a Blob as it is, or the inflated blocks of a packed gzip file.
async function* chunks(text) {
  if (text instanceof Blob) {
    const reader = text.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  for (const b of text.blocks) yield await inflate(b);
}

async function inflate(block) {
  const buf = await new Response(block.blob.stream().pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer();
  return new Uint8Array(buf);
}

async function search(job) {
  const needle = new TextEncoder().encode(job.needle.toLowerCase());
  const hits = [];
  let tail = new Uint8Array(0), offset = 0;
  const lower = (b) => { for (let i = 0; i < b.length; i++) { const c = b[i]; if (c >= 65 && c <= 90) b[i] = c + 32; } return b; };
  for await (const value of chunks(job.text)) {
    const hay = new Uint8Array(tail.length + value.length);
    hay.set(tail, 0);
    hay.set(lower(value.slice()), tail.length);
    const base = offset - tail.length;
    let i = 0;
    for (;;) {
      const k = hay.indexOf(needle[0], i);
      if (k < 0 || k + needle.length > hay.length) break;
      let ok = true;
      for (let j = 1; j < needle.length; j++) if (hay[k + j] !== needle[j]) { ok = false; break; }
      if (ok) { hits.push(base + k); if (hits.length >= job.limit) break; }
      i = k + 1;
    }
    if (hits.length >= job.limit) break;
    offset += value.length;
    tail = hay.slice(Math.max(0, hay.length - (needle.length - 1)));
  }
  const offsets = new Float64Array(hits);
  postMessage({ id: job.id, offsets }, [offsets.buffer]);
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
  for await (const value of chunks(job.text)) {
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

onmessage = (e) => {
  const job = e.data;
  (job.grep !== undefined ? grep(job) : job.needle !== undefined ? search(job) : index(job)).catch((err) =>
    postMessage({ id: job.id, error: String((err && err.message) || err) }));
};
`;

let worker = null;
let nextId = 1;
const pending = new Map();

function ensureWorker() {
  if (worker) return worker;
  const url = URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' }));
  worker = new Worker(url);
  URL.revokeObjectURL(url);
  worker.onmessage = (e) => {
    const msg = e.data;
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.progress !== undefined) { if (p.progress) p.progress(msg.progress); return; }
    pending.delete(msg.id);
    p.resolve(msg);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    for (const p of pending.values()) p.resolve({ error: 'the indexing worker failed: ' + (e.message || 'unknown error') });
    pending.clear();
    worker = null;
  };
  return worker;
}

function run(job, progress) {
  return new Promise((resolve) => {
    let w;
    try { w = ensureWorker(); } catch (e) { resolve({ error: 'cannot start a worker: ' + e }); return; }
    job.id = nextId++;
    pending.set(job.id, { resolve, progress });
    w.postMessage(job);
  });
}

// Indexes `file` (kind 0: debug log, 1: world models, 2: message log). Resolves to
// `{spans: Float64Array [cycle, stopped, start, end, firstLine]…, levels, lines, bad,
// bytes, gz, text, error}`; `text` holds a gzip file's text in packed blocks (null for a
// plain file, whose text is the file).
export function index_agent_file(file, kind, progress) {
  return run({ file, kind }, progress);
}

// One packed block's text (the worker has its own copy of this: it runs from a string).
async function inflate(block) {
  const buf = await new Response(block.blob.stream().pipeThrough(new DecompressionStream('deflate-raw'))).arrayBuffer();
  return new Uint8Array(buf);
}

// Bytes `start..end` of a file's text: a slice of the file, or of the inflated blocks of a
// packed gzip file (the last blocks inflated are kept: playback reads neighbouring ranges).
const inflated = new Map();
export async function read_range(text, start, end) {
  if (text instanceof Blob) return new Uint8Array(await text.slice(start, end).arrayBuffer());
  const out = new Uint8Array(Math.max(0, end - start));
  for (const b of text.blocks) {
    if (b.end <= start || b.start >= end) continue;
    let bytes = inflated.get(b.blob);
    if (!bytes) {
      bytes = await inflate(b);
      inflated.set(b.blob, bytes);
      while (inflated.size > 8) inflated.delete(inflated.keys().next().value);
    }
    const from = Math.max(start, b.start), to = Math.min(end, b.end);
    out.set(bytes.subarray(from - b.start, to - b.start), from - start);
  }
  return out;
}

// Offsets (at most `limit`) where `needle` occurs in a file's text, ASCII letters in any
// case.
export function search_agent_file(text, needle, limit) {
  return run({ text, needle, limit });
}

// The lines of a file's text that hold `needle` (as written), at most `limit`: `{lines}`.
export function grep_agent_file(text, needle, limit) {
  return run({ text, grep: needle, limit });
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
