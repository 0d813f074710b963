// The 3D view's worker (`web/view3d`, built by Trunk as `view3d-worker.js` and
// `view3d-worker_bg.wasm`): started, and so downloaded, only when the 3D view is asked for. The
// page hands it a canvas (`transferControlToOffscreen`) and then posts each display frame's
// scene as a Float32Array; the worker paints the newest one at its next animation frame, so a
// slow renderer skips frames rather than falling behind.

// The worker's files sit beside the page's own, two folders above this snippet
// (`snippets/pitchside-web-HASH/view3d.js`).
const GLUE = new URL('../../view3d-worker.js', import.meta.url).href;
const WASM = new URL('../../view3d-worker_bg.wasm', import.meta.url).href;

const WORKER = `
importScripts(GLUE);
const ready = wasm_bindgen({ module_or_path: WASM });
let renderer = null, latest = null, scheduled = false, finish = '';
const message = (e) => String((e && e.message) || e);
const later = (f) => (self.requestAnimationFrame ? self.requestAnimationFrame(f) : setTimeout(f, 0));
function paint() {
  scheduled = false;
  if (!renderer || !latest) return;
  const frame = latest;
  latest = null;
  const t0 = performance.now();
  try {
    if (finish === 'offscreen') {
      renderer.draw_offscreen(frame);
    } else {
      renderer.draw(frame);
      if (finish === 'canvas') renderer.finish();
    }
    postMessage({ drawn: performance.now() - t0 });
  } catch (e) {
    postMessage({ error: message(e) });
  }
}
onmessage = async (e) => {
  const d = e.data;
  if (d.canvas) {
    try {
      await ready;
      if (renderer) renderer.free();
      renderer = null;
      renderer = new wasm_bindgen.Renderer(d.canvas);
      postMessage({ ready: true, renderer: renderer.renderer() });
    } catch (err) {
      postMessage({ error: message(err) });
    }
  } else if (d.frame && d.finish) {
    // The benchmark's frames: each painted and finished as it comes, none skipped.
    latest = d.frame;
    finish = d.finish;
    paint();
  } else if (d.frame) {
    latest = d.frame;
    finish = '';
    if (!scheduled) { scheduled = true; later(paint); }
  } else if (d.pixels) {
    // For the tests: the canvas's pixels as painted (width, height, then RGBA rows from the
    // top), the newest frame painted first.
    if (latest) paint();
    try {
      postMessage({ pixels: renderer ? renderer.pixels() : null });
    } catch (err) {
      postMessage({ error: message(err) });
    }
  }
};
`;

// Starts the worker on `canvas`; `status(kind, value)` hears `ready`, `error` (with the message,
// e.g. no WebGL2) and `drawn` (milliseconds the last frame took in the worker). Returns the
// handle `post3d` and `stop3d` take, or throws where this browser cannot draw in a worker.
export function start3d(canvas, status) {
  if (typeof canvas.transferControlToOffscreen !== 'function' || typeof Worker !== 'function') {
    throw new Error('no OffscreenCanvas in this browser');
  }
  const offscreen = canvas.transferControlToOffscreen();
  const source = `const GLUE = ${JSON.stringify(GLUE)}, WASM = ${JSON.stringify(WASM)};\n` + WORKER;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  URL.revokeObjectURL(url);
  const handle = { worker, drawn: [], pixels: null };
  worker.onmessage = (e) => {
    const d = e.data;
    if (d.ready) status('ready', d.renderer || '');
    else if (d.error) status('error', d.error);
    else if (typeof d.drawn === 'number') {
      handle.drawn.push(d.drawn);
      if (handle.drawn.length > 600) handle.drawn.splice(0, 300);
      status('drawn', String(d.drawn));
    } else if ('pixels' in d) {
      handle.pixels = d.pixels;
    }
  };
  worker.onerror = (e) => status('error', 'the 3D view stopped: ' + (e.message || 'worker error'));
  worker.postMessage({ canvas: offscreen }, [offscreen]);
  return handle;
}

// Sends one frame (`frame` a Float32Array, moved to the worker). For the benchmark, `finish`
// makes the worker wait for the pixels before it reports the time: `canvas` paints the page's
// canvas, `offscreen` a texture of the worker's own (the renderer's cost without the browser's
// compositing); '' is a page frame.
export function post3d(handle, frame, finish) {
  handle.worker.postMessage({ frame, finish }, [frame.buffer]);
}

export function stop3d(handle) {
  handle.worker.terminate();
}

// The times of the frames drawn since the last call (milliseconds), oldest first.
export function drawn3d(handle) {
  const out = handle.drawn;
  handle.drawn = [];
  return out;
}

// For the tests: asks for the canvas's pixels; `pixels3d` gives them once they came.
export function ask_pixels3d(handle) {
  handle.pixels = undefined;
  handle.worker.postMessage({ pixels: true });
}

export function pixels3d(handle) {
  return handle.pixels === undefined ? null : handle.pixels;
}
