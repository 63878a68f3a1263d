/**
 * Output streams that tolerate a closed pipe (`ovir info *.onnx | head -1`): once the reader has
 * gone, writes are dropped instead of crashing with `Unhandled 'error' event … EPIPE`, and commands
 * that only print (info, shapes) stop early. Work with effects beyond printing (a batch writing
 * models and its report) carries on.
 */
let closed = false;
let installed = false;

/** Installs the EPIPE handlers on stdout and stderr (idempotent). */
export function tolerateClosedPipes(): void {
  if (installed) return;
  installed = true;
  for (const s of [process.stdout, process.stderr]) {
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') { closed = true; return; }
      throw e;
    });
  }
}

/** True once stdout's reader has closed the pipe: printing more is pointless. */
export function outputClosed(): boolean {
  return closed;
}
