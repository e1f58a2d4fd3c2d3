import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** `${package version}+${short commit}`; the commit from MOS_BUILD_COMMIT or git. */
export function buildVersion(): string {
  if (cached) return cached;
  const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
    version: string;
  };
  let commit = process.env.MOS_BUILD_COMMIT;
  if (!commit) {
    try {
      commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    } catch {
      commit = 'unknown';
    }
  }
  cached = `${pkg.version}+${commit || 'unknown'}`;
  return cached;
}
