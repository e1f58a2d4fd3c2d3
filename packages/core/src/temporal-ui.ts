/**
 * Links into the Temporal Web UI, so an operator can go from a stored webhook to the run that
 * processed it. Pure: the base URL and namespace come from the caller's config.
 */
export interface TemporalUiRunRef {
  /** The UI's origin (and path prefix, if any), e.g. `http://127.0.0.1:8233`; null: no UI configured. */
  baseUrl: string | null | undefined;
  namespace: string;
  workflowId: string | null | undefined;
  runId: string | null | undefined;
}

/**
 * `<base>/namespaces/<ns>/workflows/<workflow id>/<run id>/history` when the run is known;
 * `<base>/namespaces/<ns>/workflows/<workflow id>` (the UI opens the latest run) when only the
 * workflow id is; null without a base or a workflow id. Every segment is percent-encoded.
 */
export function temporalUiRunUrl(ref: TemporalUiRunRef): string | null {
  const base = ref.baseUrl?.replace(/\/+$/, '');
  if (!base || !ref.workflowId) return null;
  const workflow = `${base}/namespaces/${encodeURIComponent(ref.namespace)}/workflows/${encodeURIComponent(ref.workflowId)}`;
  return ref.runId ? `${workflow}/${encodeURIComponent(ref.runId)}/history` : workflow;
}
