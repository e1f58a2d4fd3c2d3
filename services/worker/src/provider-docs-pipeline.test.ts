import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signProviderBody } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createApiApp } from '@mos/api';
import { listen } from '@mos/http/testing';
import { upsertWorkspace } from '@mos/db';
import { testDeps } from '@mos/app/testing';
import { providerDocsExamples } from '@mos/core/testing';
import { sharedWorkflowBundle, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';
import { startWorkerRuntime, type WorkerRuntime } from './worker';

/**
 * Issue 9's proof: every webhook example the provider documents (docs/provider-reference/webhooks
 * and ours in core/src/webhooks/fixtures/provider-docs, one list from core's
 * webhooks/testing/provider-docs-examples.ts; the fixtures README cites each source), signed and posted
 * to the API as the provider would, runs the real pipeline with the production effects and
 * lands as rows. Only the three published examples that are not deliveries the provider could
 * send fail, and their failure says why. The provider's pages reuse message ids and timestamps
 * across examples, so each example goes to its own workspace (its per-workspace path): one
 * page's example never dedupes another's.
 */
const EXAMPLES = new Map(providerDocsExamples().map((e) => [`${e.name}.json`, e.url]));
const FILES = [...EXAMPLES.keys()];
const UNSENDABLE = ['account_update_partner_added.json', 'account_update_partner_app_installed.json', 'account_update_partner_app_uninstalled.json'];
const SECRET = 'whsec-provider-docs-e2e';

describe('every provider-documented webhook through the real pipeline', () => {
  let tdb: TestDatabase;
  let api: Awaited<ReturnType<typeof listen>>;
  let runtime: WorkerRuntime;
  const eventOf = new Map<string, string>();
  const workspaceOf = new Map<string, string>();
  /** Rows of `sql` in the workspace that received `file` ($1 is the workspace id). */
  const q = async (file: string, sql: string, params: unknown[] = []) => (await tdb.pool.query(sql, [workspaceOf.get(file), ...params])).rows;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db, { env: { WEBHOOK_INGRESS_CACHE_MS: '0' } });
    api = await listen(createApiApp(deps));
    runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('provider-docs') },
      relay: { pollIntervalMs: 250 },
      heartbeatIntervalMs: 1_000,
      worker: { workflowBundle: await sharedWorkflowBundle() },
    });
    for (const [i, file] of FILES.entries()) {
      const slug = `docs-${i}`;
      const { workspace } = await upsertWorkspace(tdb.db, slug, { wabaId: '102290129340398' });
      await deps.vault.set(deps.db, workspace.id, 'webhook-signing-secret', SECRET);
      workspaceOf.set(file, workspace.id);
      const body = readFileSync(EXAMPLES.get(file)!);
      const res = await fetch(`${api.url}/webhooks/messaging/${slug}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signProviderBody(SECRET, body) },
        body,
      });
      const json = (await res.json()) as { accepted: boolean; webhookEventId: string };
      expect(res.status, file).toBe(200);
      eventOf.set(file, json.webhookEventId);
    }
    await waitFor(
      async () => {
        const { rows } = await tdb.pool.query(`SELECT count(*)::int AS n FROM webhook_events WHERE normalization_status IN ('processed', 'failed')`);
        return rows[0].n >= FILES.length;
      },
      { timeoutMs: 120_000, what: `${FILES.length} deliveries finished` },
    );
  }, 240_000);
  afterAll(async () => {
    await runtime?.stop();
    await api?.close();
    await tdb?.drop();
  });

  it('processes every sendable example; the unsendable ones fail saying why', async () => {
    const { rows } = await tdb.pool.query(`SELECT e.id, e.normalization_status AS status, d.error FROM webhook_events e
      LEFT JOIN webhook_deliveries d ON d.webhook_event_id = e.id AND d.workspace_id = e.workspace_id`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const file of FILES) {
      const row = byId.get(eventOf.get(file));
      if (UNSENDABLE.includes(file)) {
        expect(row, file).toMatchObject({ status: 'failed' });
        expect(row.error, file).toMatch(/object|field/);
        expect(row.error, file).not.toMatch(/topic invalid_payload/);
      } else {
        expect(row, file).toMatchObject({ status: 'processed', error: null });
      }
    }
  });

  // The effects of the published examples, one family each (sources: the fixtures README).
  it("keeps each message type's content and applies reactions, edits, revokes and echoes", async () => {
    const [location] = await q('messages_location.json', `SELECT content FROM messages WHERE workspace_id = $1 AND type = 'location'`);
    expect(location!.content).toMatchObject({ kind: 'location', latitude: expect.any(Number), longitude: expect.any(Number) });
    const kindOf = async (file: string) =>
      (await q(file, `SELECT content->>'kind' AS kind FROM messages WHERE workspace_id = $1 AND direction = 'inbound'`))[0]?.kind;
    for (const [file, kind] of [
      ['messages_button_quick_reply.json', 'button'],
      ['messages_contacts.json', 'contacts'],
      ['messages_interactive_list_reply.json', 'interactive'],
      ['messages_interactive_nfm_reply_flow_WRAPPED.json', 'interactive'],
      ['messages_image.json', 'media'],
      ['messages_sticker_animated.json', 'media'],
      ['messages_order.json', 'order'],
      ['messages_text.json', 'text'],
      ['messages_unsupported_edit.json', 'unsupported'],
    ])
      expect(await kindOf(file!), file).toBe(kind);

    // The add and the removal share a second; the removal wins, and no message row is made for either.
    const original = 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=';
    const reaction = `SELECT emoji FROM message_reactions WHERE workspace_id = $1 AND reacted_to_message_id = $2`;
    expect(await q('messages_reaction.json', reaction, [original])).toEqual([{ emoji: '👍' }]);
    expect(await q('messages_reaction_removed.json', reaction, [original])).toEqual([{ emoji: null }]);
    expect(await q('messages_reaction.json', `SELECT 1 FROM messages WHERE workspace_id = $1`)).toEqual([]);
    // The edit and the revoke name a message we never received: each waits for it.
    const revision = `SELECT kind, applied_at FROM message_revisions WHERE workspace_id = $1 AND message_provider_id = $2`;
    expect(await q('messages_edit_coexistence.json', revision, [original])).toEqual([{ kind: 'edit', applied_at: null }]);
    expect(await q('messages_revoke_coexistence.json', revision, [original])).toEqual([{ kind: 'revoke', applied_at: null }]);

    const [echo] = await q('smb_message_echoes_text.json', `SELECT direction, content FROM messages WHERE workspace_id = $1 AND provider_message_id = $2`, [
      'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA',
    ]);
    expect(echo).toMatchObject({ direction: 'outbound', content: { kind: 'text' } });
  });

  it('keeps hidden-number users, number changes and every status detail', async () => {
    expect(
      await q(
        'bsuid_messages_text_username_hidden_number.json',
        `SELECT phone_number, username FROM contacts WHERE workspace_id = $1 AND provider_user_id = $2`,
        ['user.93737...'],
      ),
    ).toEqual([{ phone_number: null, username: '@realsheenanelson' }]);
    expect(
      await q('messages_system_user_changed_number.json', `SELECT change, new_phone_number FROM contact_identity_changes WHERE workspace_id = $1`),
    ).toEqual([{ change: 'number_changed', new_phone_number: '+12195555358' }]);
    const [sent] = await q(
      'status_sent_marketing_with_pricing_conversation.json',
      `SELECT status, pricing_billable, pricing_model, pricing_type, pricing_category FROM message_statuses WHERE workspace_id = $1`,
    );
    expect(sent).toEqual({ status: 'sent', pricing_billable: true, pricing_model: 'PMP', pricing_type: 'regular', pricing_category: 'marketing' });
    expect(await q('constructed_status_played.json', `SELECT status FROM message_statuses WHERE workspace_id = $1`)).toEqual([{ status: 'played' }]);
    expect(
      await q('bsuid_status_delivered_sent_to_bsuid_empty_wa_id.json', `SELECT phone_number, provider_user_id FROM contacts WHERE workspace_id = $1`),
    ).toEqual([{ phone_number: null, provider_user_id: 'user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6' }]);
  });

  it('updates synced templates and records account news and limits', async () => {
    const [welcome] = await q(
      'message_template_quality_update.json',
      `SELECT quality_score, previous_quality_score FROM synced_templates WHERE workspace_id = $1 AND name = 'welcome_template'`,
    );
    expect(welcome).toEqual({ quality_score: 'YELLOW', previous_quality_score: 'GREEN' });
    const [number] = await q(
      'phone_number_quality_update_throughput_upgrade.json',
      `SELECT messaging_limit_tier, throughput_level FROM channel_limits WHERE workspace_id = $1 AND display_phone_number = '15550783881'`,
    );
    expect(number).toMatchObject({ messaging_limit_tier: 'TIER_UNLIMITED', throughput_level: 'HIGH' });
    const [account] = await q(
      'business_capability_update.json',
      `SELECT max_daily_conversations, max_phone_numbers FROM channel_limits WHERE workspace_id = $1`,
    );
    expect(account).toEqual({ max_daily_conversations: 2000, max_phone_numbers: 25 });
    for (const [file, field] of [
      ['account_alerts_capabilities_deferred.json', 'account_alerts'],
      ['account_update_account_violation.json', 'account_update'],
      ['security_pin_reset_request.json', 'security'],
      ['messages_errors_system_level.json', 'messages'],
    ])
      expect(await q(file!, `SELECT field FROM account_events WHERE workspace_id = $1`), file).toEqual([{ field }]);
    const [rejected] = await q(
      'message_template_status_update_rejected_invalid_format.json',
      `SELECT status, rejection_reason, status_detail FROM synced_templates WHERE workspace_id = $1`,
    );
    expect(rejected).toMatchObject({ status: 'rejected', rejection_reason: 'INVALID_FORMAT', status_detail: { recommendation: expect.any(String) } });
  });
});
