import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { authenticate, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createControlPlaneApp } from './app';
import { inboundText, storeAndApply } from './testing/contacts';

interface Seen {
  authorization: string | undefined;
  path: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}

/** A local OpenAI-compatible chat endpoint: records each request and cites the first block. */
async function fakeChat(): Promise<{ url: string; seen: Seen[]; failNext: () => void; close(): Promise<void> }> {
  const seen: Seen[] = [];
  let fail = false;
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data);
      seen.push({ authorization: req.headers.authorization, path: req.url, body });
      if (fail) {
        fail = false;
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
        return;
      }
      const prompt = body.messages.map((m: { content: string }) => m.content).join('\n');
      const cited = /\[contact (ctr_\w+)/.exec(prompt)?.[1] ?? 'nothing';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: `See ${cited}.` } }] }));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, seen, failNext: () => (fail = true), close: () => new Promise((r) => server.close(() => r())) };
}

/** Strings that exist only in workspace B; none may ever reach a prompt built for A. */
const B_ONLY = ['Giulia', 'Bianchi', '393339998877', 'colour swatch refund', 'Tommaso', 'rimborso colore'];

describe('POST /api/ai-assistant', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let cp: Awaited<ReturnType<typeof listen>>;
  let chat: Awaited<ReturnType<typeof fakeChat>>;
  let a: SeededOperator;
  let aViewer: SeededOperator;
  let aDeveloper: SeededOperator;
  let b: SeededOperator;
  let noKey: SeededOperator;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    cp = await listen(createControlPlaneApp(deps));
    chat = await fakeChat();
    a = await seedOperator(deps, { role: 'owner' });
    aViewer = await seedOperator(deps, { workspace: a.workspaceSlug, role: 'viewer' });
    aDeveloper = await seedOperator(deps, { workspace: a.workspaceSlug, role: 'developer' });
    b = await seedOperator(deps, { role: 'owner' });
    noKey = await seedOperator(deps, { role: 'owner' });

    const seed = async (op: SeededOperator, from: string, name: string, body: string, id: string) => {
      await storeAndApply(tdb.db, op.workspaceId, inboundText({ id, from, name, body, at: '2025-06-18T10:00:00Z' }));
      ids[name] = (await resolveContact(tdb.db, op.workspaceId, { phoneNumber: `+${from}`, userId: null }, { at: new Date() })).id;
    };
    await seed(a, '16505551234', 'Sheena Nelson', 'Does it come in another color? I may want a refund', 'wamid.a1');
    await seed(a, '393471234567', 'Marco Rossi', 'Ordine arrivato, grazie', 'wamid.a2');
    // Workspace B holds look-alike data: same words, so an unscoped search would find it.
    await seed(b, '393339998877', 'Giulia Bianchi', 'I want a colour swatch refund for the color mismatch', 'wamid.b1');
    await seed(b, '447700900111', 'Tommaso', 'rimborso colore another color refund', 'wamid.b2');

    for (const [op, key] of [
      [a, 'sk-a'],
      [b, 'sk-b'],
    ] as const) {
      expect((await jsonRequest(`${cp.url}/api/secrets/llm-api-key`, { method: 'PUT', headers: bearer(op.token), body: { value: key } })).status).toBe(200);
      const set = await jsonRequest(`${cp.url}/api/workspace`, {
        method: 'PATCH',
        headers: bearer(op.token),
        body: { llmBaseUrl: chat.url, llmModel: 'test-model' },
      });
      expect(set).toMatchObject({ status: 200, body: { workspace: { llmBaseUrl: chat.url, llmModel: 'test-model' } } });
    }
  });
  afterAll(async () => {
    await cp?.close();
    await chat?.close();
    await tdb?.drop();
  });

  const ask = (op: SeededOperator | null, body: unknown) =>
    jsonRequest(`${cp.url}/api/ai-assistant`, { method: 'POST', headers: op ? bearer(op.token) : {}, body });

  it('401 without a session; 400 invalid_request for a missing, empty or too long question', async () => {
    expect(await ask(null, { question: 'hi' })).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    for (const body of [{}, { question: '' }, { question: '   ' }, { question: 'x'.repeat(2001) }, { question: 42 }]) {
      expect((await ask(a, body)).body.error, JSON.stringify(body).slice(0, 40)).toBe('invalid_request');
    }
    expect(chat.seen).toHaveLength(0);
  });

  it('400 no_llm_key without the vault key; 400 llm_not_configured without endpoint settings', async () => {
    expect(await ask(noKey, { question: 'who wrote?' })).toMatchObject({ status: 400, body: { error: 'no_llm_key' } });
    await deps.vault.set(deps.db, noKey.workspaceId, 'llm-api-key', 'sk-n');
    expect(await ask(noKey, { question: 'who wrote?' })).toMatchObject({ status: 400, body: { error: 'llm_not_configured' } });
    expect(chat.seen).toHaveLength(0);
  });

  it('viewers may not ask: its answers quote customers (403 forbidden, nothing sent to the model)', async () => {
    const before = chat.seen.length;
    expect(await ask(aViewer, { question: 'Who asked about a refund?' })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(chat.seen).toHaveLength(before);
  });

  it('answers from workspace A only, citing the contact and conversation used', async () => {
    const res = await ask(aDeveloper, { question: 'Who asked about another color or a refund?' });
    expect(res.status).toBe(200);
    expect(res.body.answer).toBe(`See ${ids['Sheena Nelson']}.`);
    expect(res.body.citations).toHaveLength(1);
    expect(res.body.citations[0].contactId).toBe(ids['Sheena Nelson']);
    expect(res.body.citations[0].conversationId).toMatch(/^cnv_/);

    const call = chat.seen.at(-1)!;
    expect(call).toMatchObject({ authorization: 'Bearer sk-a', path: '/v1/chat/completions', body: { model: 'test-model' } });
    const prompt = JSON.stringify(call.body.messages);
    expect(prompt).toContain('Does it come in another color?');
    expect(prompt).toContain(ids['Sheena Nelson']);
    expect(prompt).toContain('Who asked about another color or a refund?');
    for (const s of [...B_ONLY, ids['Giulia Bianchi']!, ids.Tommaso!]) expect(prompt).not.toContain(s);
  });

  it('workspace B sees only B, with its own key; no prompt for A ever carried B data', async () => {
    const res = await ask(b, { question: 'refund color rimborso Giulia Sheena Marco' });
    expect(res.status).toBe(200);
    const call = chat.seen.at(-1)!;
    expect(call.authorization).toBe('Bearer sk-b');
    // The context part (the operator's own question may of course name anyone).
    const context = call.body.messages[1]!.content.split('\n\nQuestion:')[0]!;
    expect(context).toContain('Giulia Bianchi');
    expect(context).toContain('Tommaso');
    expect(context).not.toMatch(/Sheena|Marco Rossi|16505551234|another color\?|Ordine/);
    expect(context).not.toContain(ids['Sheena Nelson']);
    // The fake answer names the first block only, so only that block is cited.
    expect(res.body.citations.map((c: { contactId: string }) => c.contactId)).toEqual([ids['Giulia Bianchi']]);

    // A question naming B's people from A finds nothing of theirs.
    await ask(a, { question: 'What did Giulia Bianchi or Tommaso say about the colour swatch refund?' });
    for (const seen of chat.seen.filter((s) => s.authorization === 'Bearer sk-a')) {
      const p = JSON.stringify(seen.body.messages);
      for (const s of B_ONLY.filter((x) => !['Giulia', 'Bianchi', 'Tommaso', 'colour swatch refund'].includes(x))) expect(p).not.toContain(s);
      expect(p).not.toContain('393339998877');
      expect(p).not.toContain('I want a colour swatch refund');
    }
  });

  it('502 llm_failed when the endpoint fails; the tRPC twin assistant.ask answers alike', async () => {
    chat.failNext();
    expect(await ask(a, { question: 'refund?' })).toMatchObject({ status: 502, body: { error: 'llm_failed' } });
    const caller = createCaller({ deps, actor: (await authenticate(deps, a.token))!, requestId: 't' });
    const out = await caller.assistant.ask({ question: 'Marco ordine' });
    expect(out.citations.map((c) => c.contactId)).toEqual([ids['Marco Rossi']]);
  });
});
