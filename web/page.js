// Browser services the page uses from Rust (src/export.rs, src/ui/transport.rs): the clipboard,
// downloads, and recording the pitch canvas as a video.

// Puts `text` on the clipboard. The Clipboard API needs a secure context (HTTPS or localhost)
// and the page's focus; elsewhere the older copy command on a hidden text field still works.
// Resolves to whether it worked.
export async function copy_text(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      // A browser that asks the user for permission may never answer: give it a second.
      const late = new Promise((_, reject) => setTimeout(() => reject(new Error('no answer')), 1000));
      await Promise.race([navigator.clipboard.writeText(text), late]);
      return true;
    }
  } catch (e) {
    // Fall through to the older way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  area.remove();
  return ok;
}

// Saves `blob` as a download named `name`.
export function download_blob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has its own copy once it started; a minute is ample.
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// The canvas as a PNG blob (resolves to null if the browser cannot encode it).
export function canvas_png(canvas) {
  return new Promise((resolve) => canvas.toBlob((b) => resolve(b), 'image/png'));
}

// The best WebM the browser records, or '' if it records none.
function webmType() {
  if (typeof MediaRecorder === 'undefined') return '';
  for (const t of ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm']) {
    if (MediaRecorder.isTypeSupported(t)) return t;
  }
  return '';
}

export function can_record() {
  return typeof HTMLCanvasElement !== 'undefined'
    && typeof HTMLCanvasElement.prototype.captureStream === 'function'
    && webmType() !== '';
}

// Records what is drawn on `canvas` until `stop()` is called; `stop()` resolves to the WebM
// blob. The stream takes a frame each time the canvas is drawn, at most `fps` a second.
export class Recorder {
  constructor(canvas, fps) {
    const type = webmType();
    if (!type) throw new Error('this browser cannot record video (no WebM MediaRecorder)');
    this.stream = canvas.captureStream(fps);
    this.chunks = [];
    this.type = type;
    this.recorder = new MediaRecorder(this.stream, { mimeType: type, videoBitsPerSecond: 4000000 });
    this.recorder.ondataavailable = (e) => { if (e.data && e.data.size) this.chunks.push(e.data); };
    this.done = new Promise((resolve, reject) => {
      this.recorder.onstop = () => resolve(new Blob(this.chunks, { type: 'video/webm' }));
      this.recorder.onerror = (e) => reject(new Error((e.error && e.error.message) || 'recording failed'));
    });
    // A chunk every second, so a long clip is not one huge buffer at the end.
    this.recorder.start(1000);
  }

  stop() {
    if (this.recorder.state !== 'inactive') this.recorder.stop();
    for (const track of this.stream.getTracks()) track.stop();
    return this.done;
  }
}
