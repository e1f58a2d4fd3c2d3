import { ACCOUNT_FIELDS } from './webhooks/normalize-account';

/** Where a template change recorded as an account event came from (the provider's `field`). */
export const TEMPLATE_CHANGE_FIELDS = {
  status: 'message_template_status_update',
  quality: 'message_template_quality_update',
  category: 'template_category_update',
  components: 'message_template_components_update',
} as const;

/**
 * Every provider field an `account_events` row can carry: the account fields, `messages`
 * (a value carrying only errors) and template changes no synced template could take.
 * A closed list, so a filter on anything else is refused rather than silently empty.
 */
export const ACCOUNT_EVENT_FIELDS = [...ACCOUNT_FIELDS, 'messages', ...Object.values(TEMPLATE_CHANGE_FIELDS)] as const;
export type AccountEventField = (typeof ACCOUNT_EVENT_FIELDS)[number];
