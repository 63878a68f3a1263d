import { statSync } from 'node:fs';
import { allGraphs } from '../graph/graph.js';
import type { Model } from '../graph/model.js';

/**
 * `ovir convert --verbose`: what was done, one line a step on stderr — the model read (its format,
 * nodes in every graph, bodies), the conversion, the files written with their sizes — each with its
 * time, then the peak memory of the process. Measured by the caller around each step; nothing here
 * runs without --verbose.
 */
export class ConvertSteps {
  private readonly lines: string[] = [];
  private last = performance.now();

  /** Seconds since the previous step (or since this record was made). */
  private lap(): string {
    const now = performance.now();
    const s = (now - this.last) / 1000;
    this.last = now;
    return `${s.toFixed(2)} s`;
  }

  read(file: string, model: Model): void {
    this.lines.push(`read ${file}: ${formatName(model)}, ${graphSize(model)}, in ${this.lap()}`);
  }

  converted(model: Model): void {
    this.lines.push(`converted to ${formatName(model)}: ${graphSize(model)}, in ${this.lap()}`);
  }

  wrote(files: readonly string[]): void {
    this.lines.push(`wrote ${files.map((f) => `${f} (${bytes(statSync(f).size)})`).join(' and ')} in ${this.lap()}`);
  }

  /** The lines, each prefixed `ovir: `, and the peak resident memory. */
  text(): string {
    const peak = process.resourceUsage().maxRSS * 1024;
    return [...this.lines, `peak memory ${bytes(peak)}`].map((l) => `ovir: ${l}\n`).join('');
  }
}

const formatName = (m: Model): string => (m.dialect === 'ov' ? 'OpenVINO IR' : 'ONNX');

/** `1,234 nodes in 3 graphs` (IR: layers), counting every body. */
function graphSize(m: Model): string {
  let nodes = 0;
  let graphs = 0;
  for (const g of allGraphs(m.graph)) {
    graphs++;
    nodes += g.nodes.length + (m.dialect === 'ov' ? g.inputs.length + g.outputs.length + g.initializers.length : 0);
  }
  const what = m.dialect === 'ov' ? 'layers' : 'nodes';
  return `${nodes.toLocaleString('en-US')} ${what}${graphs > 1 ? ` in ${graphs.toLocaleString('en-US')} graphs (the main graph and ${(graphs - 1).toLocaleString('en-US')} ${graphs === 2 ? 'body' : 'bodies'})` : ''}`;
}

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
