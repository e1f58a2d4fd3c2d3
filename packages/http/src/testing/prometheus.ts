/** One sample line of Prometheus text: `name{label="value",...} number`. */
const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheus(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/**
 * The sum of the samples named `name` whose labels include `labels` (0 when none): a counter's
 * total over the labels left out, or one series when every label is given.
 */
export function promValue(text: string, name: string, labels: Record<string, string> = {}): number {
  return parsePrometheus(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Whether a series named `name` is present at all (with these labels). */
export function hasSeries(text: string, name: string, labels: Record<string, string> = {}): boolean {
  return parsePrometheus(text).some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}
