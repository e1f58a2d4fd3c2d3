import { randomBytes } from 'node:crypto';

/** Prefixes of every record id. One table so a prefix is never reused for two kinds. */
export const ID_PREFIX = {
  workspace: 'ws',
  member: 'mem',
  session: 'ses',
  apiKey: 'key',
  secret: 'sec',
  audit: 'aud',
  webhookEvent: 'evt',
  delivery: 'del',
  rejection: 'rej',
  job: 'job',
  contact: 'ctr',
  conversation: 'cnv',
  message: 'msg',
  messageStatus: 'mst',
  conversationWindow: 'cwn',
  messageReaction: 'mrx',
  messageRevision: 'mrv',
  contactIdentityChange: 'cic',
  accountEvent: 'acv',
  template: 'tpl',
  syncedTemplate: 'tpl',
  campaign: 'cmp',
  journey: 'jrn',
  journeyRun: 'jrr',
  compatMapping: 'cmap',
  broadcast: 'brd',
  request: 'req',
  inboundWebhook: 'iwh',
  inboundWebhookRun: 'iwr',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * `${prefix}_${26 chars}`: a 10-char millisecond timestamp then 16 random chars (80 bits),
 * so ids sort by creation time and never collide in practice.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  const rand = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[rand[i]! % 32];
  return `${ID_PREFIX[kind]}_${encodeTime(now)}${tail}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIX[kind]}_`);
}
