import cliProgress from 'cli-progress';
import type { BatchEvent } from './types.js';

/** Where progress goes: a terminal gets a live bar, anything else plain lines. */
export interface ProgressSink {
  onEvent(e: BatchEvent): void;
  stop(): void;
}

const line = (s: string) => s.replace(/\s+/g, ' ');

/**
 * A live bar on a TTY (models done/total, running models, elapsed, ETA), with failures printed
 * above it; plain lines otherwise (one per finished model). Failures go to `err` in both modes;
 * `quiet` keeps only the failures.
 */
export function progressSink(out: NodeJS.WriteStream, err: NodeJS.WriteStream, quiet: boolean): ProgressSink {
  const running = new Set<string>();
  const failure = (input: string, error: string | null) => `failed: ${input}: ${error ?? ''}`.trimEnd();
  if (quiet) {
    return {
      onEvent: (e) => { if (e.type === 'model-done' && e.result.status === 'failed') err.write(failure(e.result.input, e.result.error) + '\n'); },
      stop: () => {},
    };
  }
  if (!err.isTTY) {
    return {
      onEvent: (e) => {
        if (e.type !== 'model-done' || e.result.status === 'interrupted') return; // counted in the final line
        const r = e.result;
        const where = `[${e.done}/${e.total}]`;
        if (r.status === 'failed') err.write(`${where} ${failure(r.input, r.error)}\n`);
        else out.write(`${where} ${r.status} ${r.input} -> ${r.outputs[0]} (${r.ms} ms)\n`);
      },
      stop: () => {},
    };
  }
  const multi = new cliProgress.MultiBar({
    stream: err,
    format: '{bar} {value}/{total} models | {current} | elapsed {duration_formatted} | ETA {eta_formatted}',
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
    fps: 5,
  }, cliProgress.Presets.shades_classic);
  let bar: cliProgress.SingleBar | null = null;
  const current = () => {
    const list = [...running];
    const s = list.slice(0, 2).join(', ') + (list.length > 2 ? ` +${list.length - 2}` : '');
    return s.length > 60 ? '…' + s.slice(-59) : s || '-';
  };
  return {
    onEvent: (e) => {
      if (e.type === 'start') bar = multi.create(e.total, 0, { current: '-' });
      else if (e.type === 'model-start') { running.add(e.input); bar?.update({ current: current() }); }
      else if (e.type === 'model-done') {
        running.delete(e.result.input);
        if (e.result.status === 'failed') multi.log(line(failure(e.result.input, e.result.error)).slice(0, 400) + '\n');
        bar?.update(e.done, { current: current() });
      }
    },
    stop: () => multi.stop(),
  };
}
