/**
 * The legacy response shape: `{status: "success" | "error", message, ...ids}`. Legacy callers
 * branch on `status`, so errors keep it too (never the control plane's `{error}` shape).
 */
export interface CompatAnswer {
  httpStatus: number;
  body: { status: 'success' | 'error'; message: string } & Record<string, unknown>;
  headers?: Record<string, string>;
}

export function compatError(httpStatus: number, message: string, headers?: Record<string, string>): CompatAnswer {
  return { httpStatus, body: { status: 'error', message }, ...(headers ? { headers } : {}) };
}

export function compatSuccess(message: string, ids: Record<string, string>): CompatAnswer {
  return { httpStatus: 200, body: { status: 'success', message, ...ids } };
}
