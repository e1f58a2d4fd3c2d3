import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyChannelLimitChange, recordAccountEvent } from '@mos/db';
import { ACCOUNT_EVENT_EXAMPLES, CHANNEL_LIMIT_EXAMPLES, createTestDatabase, EXAMPLE_WABA, type TestDatabase } from '@mos/db/testing';
import { runCli } from './testing';

/** `mos account events|limits`, run as the real CLI over the provider's documented examples (@mos/db/testing). */
describe("mos account (what the provider said about a workspace's account and numbers)", () => {
  let tdb: TestDatabase;
  const dataDir = mkdtempSync(join(tmpdir(), 'mos-cli-account-'));
  const mos = (args: string[]) => runCli(args, { DATABASE_URL: tdb.url, MOS_DATA_DIR: dataDir, MOS_ENV: 'development' });
  const scope = { accountId: EXAMPLE_WABA, phoneNumberId: null, displayPhoneNumber: null };
  const at = (unix: number) => new Date(unix * 1000);

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('lists events and limits for one workspace only, as JSON or lines', async () => {
    const boot = async (slug: string) => {
      const r = await mos(['bootstrap', '--workspace', slug, '--email', `o@${slug}.test`, '--password', 'a-long-password-1', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return r.json.workspace.id as string;
    };
    const alpha = await boot('alpha');
    const beta = await boot('beta');
    const now = new Date();
    await recordAccountEvent(tdb.db, alpha, ACCOUNT_EVENT_EXAMPLES.accountViolation, now);
    await recordAccountEvent(tdb.db, alpha, ACCOUNT_EVENT_EXAMPLES.throughputUpgrade, now);
    // The number's limits as that upgrade states them, without a conversation cap.
    const { maxDailyConversations: _unlimited, ...stated } = CHANNEL_LIMIT_EXAMPLES.throughputUpgrade.stated;
    await applyChannelLimitChange(tdb.db, alpha, { ...CHANNEL_LIMIT_EXAMPLES.throughputUpgrade, stated }, now);
    await recordAccountEvent(tdb.db, beta, ACCOUNT_EVENT_EXAMPLES.accountDeleted, now);

    const events = await mos(['account', 'events', '--workspace', 'alpha', '--json']);
    expect(events.code, events.stderr).toBe(0);
    expect(events.json.accountEvents.map((e: { event: string }) => e.event)).toEqual(['THROUGHPUT_UPGRADE', 'ACCOUNT_VIOLATION']);
    const filtered = await mos(['account', 'events', '--workspace', 'alpha', '--field', 'account_update', '--json']);
    expect(filtered.json.accountEvents).toEqual([
      expect.objectContaining({ event: 'ACCOUNT_VIOLATION', value: { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'ADULT' } } }),
    ]);
    const paged = await mos(['account', 'events', '--workspace', 'alpha', '--limit', '1', '--offset', '1', '--json']);
    expect(paged.json.accountEvents.map((e: { event: string }) => e.event)).toEqual(['ACCOUNT_VIOLATION']);

    const lines = await mos(['account', 'events', '--workspace', 'alpha']);
    expect(lines.stdout.trim().split('\n')).toEqual([
      '2025-05-28T17:46:34.000Z  phone_number_quality_update  THROUGHPUT_UPGRADE  Phone number quality update THROUGHPUT_UPGRADE: messaging limit TIER_UNLIMITED, throughput HIGH.',
      '2025-03-31T20:11:43.000Z  account_update  ACCOUNT_VIOLATION  Account update ACCOUNT_VIOLATION: ADULT.',
    ]);
    expect((await mos(['account', 'events', '--workspace', 'beta', '--json'])).json.accountEvents.map((e: { event: string }) => e.event)).toEqual([
      'ACCOUNT_DELETED',
    ]);

    const limits = await mos(['account', 'limits', '--workspace', 'alpha', '--json']);
    expect(limits.json.channelLimits).toEqual([
      expect.objectContaining({ scope: 'phone_number', displayPhoneNumber: '15550783881', messagingLimitTier: 'TIER_UNLIMITED' }),
    ]);
    expect((await mos(['account', 'limits', '--workspace', 'alpha'])).stdout).toContain(
      'number 15550783881: tier TIER_UNLIMITED, throughput HIGH, quality THROUGHPUT_UPGRADE',
    );
    expect((await mos(['account', 'limits', '--workspace', 'beta'])).stdout.trim()).toBe('(no limits recorded)');
  }, 90_000);

  it('bad options and unknown workspaces exit non-zero with our error codes', async () => {
    const bad = await mos(['account', 'events', '--workspace', 'alpha', '--limit', '0', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_query' });
    const field = await mos(['account', 'events', '--workspace', 'alpha', '--field', 'Not A Field', '--json']);
    expect(field.code).toBe(1);
    expect(JSON.parse(field.stderr)).toMatchObject({ error: 'invalid_query' });
    const unknown = await mos(['account', 'limits', '--workspace', 'nope', '--json']);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ error: 'not_found' });
    expect((await mos(['account', 'events'])).code).toBe(2);
  }, 60_000);

  it("a stored value cannot drive the admin's terminal: control characters are shown escaped", async () => {
    const boot = await mos(['bootstrap', '--workspace', 'gamma', '--email', 'o@gamma.test', '--password', 'a-long-password-1', '--json']);
    await recordAccountEvent(
      tdb.db,
      boot.json.workspace.id,
      {
        ...scope,
        field: 'account_update',
        event: 'EVIL\u001b]0;pwned\u0007',
        occurredAt: at(1743451903),
        summary: 'Account update.',
        errors: [],
        value: {},
      },
      new Date(),
    );
    const out = (await mos(['account', 'events', '--workspace', 'gamma'])).stdout;
    expect(out).toContain('EVIL\\u001b]0;pwned\\u0007');
    expect(out.includes('\u001b') || out.includes('\u0007')).toBe(false);
  }, 60_000);
});
