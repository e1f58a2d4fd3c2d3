CREATE TABLE "contact_identity_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"change" text NOT NULL,
	"previous_phone_number" text,
	"previous_user_id" text,
	"new_phone_number" text,
	"new_user_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_reactions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"reacted_to_message_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"emoji" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_revisions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"message_provider_id" text NOT NULL,
	"contact_id" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"type" text,
	"content" jsonb,
	"text" text,
	"applied_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"field" text NOT NULL,
	"event" text NOT NULL,
	"occurred_at" timestamp with time zone,
	"event_at" timestamp with time zone NOT NULL,
	"summary" text NOT NULL,
	"value" jsonb,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"account_id" text,
	"phone_number_id" text,
	"display_phone_number" text,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_limits" (
	"workspace_id" text NOT NULL,
	"scope" text NOT NULL,
	"scope_key" text NOT NULL,
	"account_id" text,
	"phone_number_id" text,
	"display_phone_number" text,
	"messaging_limit_tier" text,
	"max_daily_conversations" integer,
	"max_phone_numbers" integer,
	"throughput_level" text,
	"quality_event" text,
	"ban_state" text,
	"stated_at" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_field" text,
	"last_event" text,
	"last_event_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_limits_pk" PRIMARY KEY("workspace_id","scope","scope_key")
);
--> statement-breakpoint
ALTER TABLE "contacts" ALTER COLUMN "phone_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "provider_user_id" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "country_code" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "subscriber_status_source" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "identity_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD COLUMN "pricing_billable" boolean;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD COLUMN "pricing_model" text;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD COLUMN "pricing_type" text;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD COLUMN "callback_data" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "content" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "context" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "referral" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "errors" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "message_send_ttl_seconds" integer;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "status_detail" jsonb;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "quality_score" text;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "previous_quality_score" text;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "quality_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "previous_category" text;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "pending_category" text;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "pending_category_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "category_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD COLUMN "components_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_identity_changes" ADD CONSTRAINT "contact_identity_changes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_identity_changes" ADD CONSTRAINT "contact_identity_changes_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_revisions" ADD CONSTRAINT "message_revisions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_revisions" ADD CONSTRAINT "message_revisions_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_events" ADD CONSTRAINT "account_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_limits" ADD CONSTRAINT "channel_limits_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_identity_changes_ws_msg_uq" ON "contact_identity_changes" USING btree ("workspace_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "contact_identity_changes_ws_prev_phone_idx" ON "contact_identity_changes" USING btree ("workspace_id","previous_phone_number");--> statement-breakpoint
CREATE INDEX "contact_identity_changes_ws_prev_user_idx" ON "contact_identity_changes" USING btree ("workspace_id","previous_user_id");--> statement-breakpoint
CREATE INDEX "contact_identity_changes_ws_contact_idx" ON "contact_identity_changes" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "message_reactions_ws_msg_contact_uq" ON "message_reactions" USING btree ("workspace_id","reacted_to_message_id","contact_id");--> statement-breakpoint
CREATE INDEX "message_reactions_ws_contact_idx" ON "message_reactions" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE INDEX "message_reactions_ws_occurred_idx" ON "message_reactions" USING btree ("workspace_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "message_revisions_ws_kind_provider_uq" ON "message_revisions" USING btree ("workspace_id","kind","provider_message_id");--> statement-breakpoint
CREATE INDEX "message_revisions_ws_message_idx" ON "message_revisions" USING btree ("workspace_id","message_provider_id","occurred_at");--> statement-breakpoint
CREATE INDEX "message_revisions_ws_contact_idx" ON "message_revisions" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE INDEX "message_revisions_ws_occurred_content_idx" ON "message_revisions" USING btree ("workspace_id","occurred_at") WHERE "message_revisions"."content" IS NOT NULL OR "message_revisions"."text" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "account_events_ws_dedupe_uq" ON "account_events" USING btree ("workspace_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "account_events_ws_event_at_idx" ON "account_events" USING btree ("workspace_id","event_at");--> statement-breakpoint
CREATE INDEX "account_events_ws_field_idx" ON "account_events" USING btree ("workspace_id","field","event_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_ws_user_id_uq" ON "contacts" USING btree ("workspace_id","provider_user_id");--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_identity_ck" CHECK ("contacts"."phone_number" IS NOT NULL OR "contacts"."provider_user_id" IS NOT NULL);