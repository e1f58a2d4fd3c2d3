import { randomInt } from 'node:crypto';

export type SimTemplateStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'PAUSED';

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

export interface SimMessage {
  id: string;
  phoneNumberId: string;
  to: string;
  type: string;
  body: Record<string, unknown>;
}

/**
 * The simulator's memory: templates per business account in creation order, the template
 * requests as received (so tests can check nothing was lost on the way), sent messages,
 * and injected faults. Ids are numeric strings below 2^53 because the provider's webhook
 * carries `message_template_id` as a JSON number.
 */
export class SimStore {
  readonly templates = new Map<string, SimTemplate>();
  readonly messages: SimMessage[] = [];
  /** Every template create/edit request body as received, accepted or not, in order. */
  readonly templateRequests: SimTemplateRequest[] = [];
  private faults: number[] = [];

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
  failNext(status: number, count = 1): void {
    for (let i = 0; i < count; i++) this.faults.push(status);
  }

  takeFault(): number | undefined {
    return this.faults.shift();
  }
}
