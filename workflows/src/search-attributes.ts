import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';
import { WEBHOOK_SEARCH_ATTRIBUTES } from './webhook-processing/contract';

// CommonJS: Node's ESM loader sees only its default export.
const { temporal } = proto;
type IndexedValueType = proto.temporal.api.enums.v1.IndexedValueType;

const INDEXED: Partial<Record<SearchAttributeType, IndexedValueType>> = {
  [SearchAttributeType.KEYWORD]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  [SearchAttributeType.KEYWORD_LIST]: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

/**
 * Registers the pipeline's search attributes on the namespace when they are missing, so a
 * Temporal the user brings (TEMPORAL_ADDRESS) works like the one infra starts with
 * `--search-attribute`. Returns the names it added. Idempotent; a cluster that refuses (no
 * operator permission) makes this throw, and the worker logs it and carries on: starts then
 * fail visibly until an operator registers them (infra/production/README.md).
 */
export async function ensureSearchAttributes(
  client: Client,
  keys: readonly SearchAttributeKey<SearchAttributeType>[] = WEBHOOK_SEARCH_ATTRIBUTES,
): Promise<string[]> {
  const operator = client.connection.operatorService;
  const { customAttributes } = await operator.listSearchAttributes({ namespace: client.options.namespace });
  const missing = keys.filter((k) => !(customAttributes && k.name in customAttributes));
  if (missing.length === 0) return [];
  const searchAttributes: Record<string, IndexedValueType> = {};
  for (const key of missing) {
    const type = INDEXED[key.type];
    if (type === undefined) throw new Error(`no indexed type for search attribute ${key.name} (${key.type})`);
    searchAttributes[key.name] = type;
  }
  await operator.addSearchAttributes({ namespace: client.options.namespace, searchAttributes });
  return missing.map((k) => k.name);
}
