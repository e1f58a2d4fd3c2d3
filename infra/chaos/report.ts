/** The chaos run's report: one table row per scenario, then its checks. */
import type { Profile, ScenarioReport } from './scenarios';

const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));

export function formatReport(reports: ScenarioReport[], run?: { profile: Profile; totalS: number }): string {
  const lines: string[] = [];
  if (run) lines.push(`Chaos run (${run.profile.label}: ${run.profile.rate}/s for ${run.profile.loadS} s per scenario), ${run.totalS} s in all`, '');
  lines.push(
    '| scenario | sent | answered 200 | other answers | stored | processed | duplicates | effects missing | broadcast msgs | sent twice | skipped | peak queue | drain |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const r of reports) {
    const d = r.deliveries;
    const other = Object.entries(d.otherAnswers)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    lines.push(
      `| ${r.name} | ${d.sent} | ${d.answered200} | ${other || '-'} | ${d.stored} | ${d.processed} | ${d.duplicates} | ${d.effectsMissing} | ${cell(r.broadcast?.messages)} | ${cell(r.broadcast?.sentTwice)} | ${cell(r.broadcast?.skipped)} | ${r.peakQueue} | ${r.drainMs === null ? 'NOT drained' : `${(r.drainMs / 1000).toFixed(1)} s`} |`,
    );
  }
  for (const r of reports) {
    lines.push('', `${r.name} (${r.fault}):`);
    for (const c of r.checks) lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.what}${c.ok || !c.detail ? '' : `: ${c.detail}`}`);
    if (Object.keys(r.notes).length > 0) lines.push(`  notes: ${JSON.stringify(r.notes)}`);
  }
  return lines.join('\n');
}
