/**
 * Output streams that tolerate a closed pipe (`ovir info *.onnx | head -1`): once the reader has
 * gone, writes are dropped instead of crashing with `Unhandled 'error' event … EPIPE`, and commands
 * that only print (info, shapes) stop early. Work with effects beyond printing (a batch writing
 * models and its report) carries on.
 */
let closed = false;
const tolerant: NodeJS.WriteStream[] = [];

/**
 * process.stdout or process.stderr, with the EPIPE handler installed on first use. Every write of
 * the CLI goes through here: a stream is made only when something is written to it (a conversion
 * without warnings never makes stderr: Node builds one over a pipe in ~3 ms, loading net).
 */
function tolerantStream(s: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!tolerant.includes(s)) {
    tolerant.push(s);
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') { closed = true; return; }
      throw e;
    });
  }
  return s;
}

/** Standard output (see tolerantStream). */
export const stdout = (): NodeJS.WriteStream => tolerantStream(process.stdout);

/** Standard error (see tolerantStream). */
export const stderr = (): NodeJS.WriteStream => tolerantStream(process.stderr);

/** Writes `text` to standard error unless it is empty (then the stream is not even made). */
export function printErr(text: string): void {
  if (text) stderr().write(text);
}

/** True once stdout's reader has closed the pipe: printing more is pointless. */
export function outputClosed(): boolean {
  return closed;
}

/**
 * True when every stream written to has handed all its bytes to the system (nothing waits in
 * Node's queue: files and pipes are written synchronously on Linux, a pipe on macOS may not be).
 * bin/ovir.js then exits at once instead of after Node's teardown of the heap.
 */
export function outputDrained(): boolean {
  return tolerant.every((s) => s.writableLength === 0);
}
