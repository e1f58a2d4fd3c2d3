import { randomInt } from 'node:crypto';

export type SimTemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED' | 'DISABLED';

export interface SimTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  parameter_format: string;
  components: unknown[];
  message_send_ttl_seconds?: number;
  status: SimTemplateStatus;
  rejected_reason?: string;
}

/** A template create or edit request exactly as the simulator received it (parsed JSON). */
export interface SimTemplateRequest {
  kind: 'create' | 'edit';
  /** The business account id (create) or the template id (edit) from the path. */
  target: string;
  body: unknown;
}

export type SimStatusName = 'sent' | 'delivered' | 'read' | 'failed';

/** An accepted send as the simulator recorded it; `statuses` lists those already handed to mos, in order. */
export interface SimMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  waId: string;
  type: string;
  body: Record<string, unknown>;
  acceptedAt: string;
  callbackData?: string;
  /** Pricing category of its status webhooks: the template's category, else `service`. */
  category: string;
  /** What its status webhooks will say: `failed` (with this code) instead of `delivered`; read or not. */
  plan: { fails: boolean; failCode?: number; read: boolean };
  statuses: SimStatusName[];
  /** Set when the response was held back (after_accept timeout): accepted, but the client never heard. */
  responseLost?: boolean;
}

/** Limit errors the provider answers on a send, injectable ahead of the throughput model's own. */
export type InjectedFaultCode = 130429 | 131056;
/** A queued answer for the next Graph call: a server error by status, or a limit error by code. */
export interface InjectedFault {
  status: number;
  code?: InjectedFaultCode;
}

/**
 * Accepted messages up to `cap`, oldest dropped first. The array is compacted only when the
 * dropped prefix outgrows the live part, so a push stays O(1) amortised at any rate.
 */
export class MessageLog {
  private items: (SimMessage | undefined)[] = [];
  private start = 0;
  constructor(public cap: number) {}

  push(m: SimMessage): void {
    this.items.push(m);
    while (this.items.length - this.start > this.cap) this.items[this.start++] = undefined;
    if (this.start > 1024 && this.start > this.items.length - this.start) {
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  get size(): number {
    return this.items.length - this.start;
  }

  all(): SimMessage[] {
    return this.items.slice(this.start) as SimMessage[];
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}

/**
 * The simulator's memory: templates per business account in creation order, the template
 * requests as received (so tests can check nothing was lost on the way), accepted messages
 * (bounded) and injected faults. Ids are numeric strings below 2^53 because the provider's webhook
 * carries `message_template_id` as a JSON number.
 */
export class SimStore {
  readonly templates = new Map<string, SimTemplate>();
  readonly messages = new MessageLog(100_000);
  /** Every template create/edit request body as received, accepted or not, in order. */
  readonly templateRequests: SimTemplateRequest[] = [];
  private faults: InjectedFault[] = [];

  newTemplateId(): string {
    let id: string;
    do id = String(1_000_000_000_000_000 + randomInt(0, 2 ** 47));
    while (this.templates.has(id));
    return id;
  }

  find(wabaId: string, name: string, language: string): SimTemplate | undefined {
    for (const t of this.templates.values()) if (t.wabaId === wabaId && t.name === name && t.language === language) return t;
    return undefined;
  }

  list(wabaId: string): SimTemplate[] {
    return [...this.templates.values()].filter((t) => t.wabaId === wabaId);
  }

  /** The next `count` provider calls answer `status` (for retry tests). */
  failNext(status: number, count = 1, code?: InjectedFaultCode): void {
    for (let i = 0; i < count; i++) this.faults.push(code ? { status, code } : { status });
  }

  takeFault(): InjectedFault | undefined {
    return this.faults.shift();
  }

  clearFaults(): void {
    this.faults = [];
  }

  /**
   * The template a send names: that name and language, APPROVED first, then PAUSED or
   * DISABLED (which answer their own codes), else none. Scans: accounts hold dozens of templates.
   */
  forSend(name: string, language: string, wabaId?: string): SimTemplate | undefined {
    let found: SimTemplate | undefined;
    for (const t of this.templates.values()) {
      if (t.name !== name || t.language !== language || (wabaId && t.wabaId !== wabaId)) continue;
      if (t.status === 'APPROVED') return t;
      if (t.status === 'PAUSED' || t.status === 'DISABLED') found = t;
    }
    return found;
  }
}
