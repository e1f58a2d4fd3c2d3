/**
 * Past one process: two API processes behind a round-robin client and two workers on the same
 * database and task queue, under the same load and broadcast as the fault scenarios. The
 * relay's advisory lock, the claimed batch ids and the workflow ids must keep every count exact.
 */
import { startStack } from './harness';
import { runLoadScenario, type Profile, type ScenarioReport } from './scenarios';

export async function runScale(profile: Profile, runDir: string, bundle: string): Promise<ScenarioReport> {
  const stack = await startStack({ name: 'scale', apis: 2, workers: 2, recipients: profile.label === 'short' ? 150 : 600, runDir, bundle });
  try {
    return await runLoadScenario(
      stack,
      profile,
      {
        name: 'two APIs, two workers',
        fault: 'none: load spread over two API processes, two workers on one task queue',
        allowedAnswers: [200],
        async inject() {},
      },
      '1790',
    );
  } finally {
    await stack.close();
  }
}
