CREATE TABLE "contacts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"name" text,
	"profile_name" text,
	"email" text,
	"external_reference_id" text,
	"subscriber_status" text DEFAULT 'subscribed' NOT NULL,
	"subscriber_status_at" timestamp with time zone,
	"locale" text,
	"last_inbound_at" timestamp with time zone,
	"anonymized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_windows" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"provider_conversation_id" text NOT NULL,
	"origin_type" text,
	"opened_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"billable" boolean,
	"pricing_model" text,
	"pricing_category" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"last_message_at" timestamp with time zone,
	"last_inbound_at" timestamp with time zone,
	"window_opened_at" timestamp with time zone,
	"window_expires_at" timestamp with time zone,
	"provider_conversation_id" text,
	"provider_window_expires_at" timestamp with time zone,
	"pricing_category" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_statuses" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"contact_id" text,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"error_code" integer,
	"error_title" text,
	"error_details" text,
	"provider_conversation_id" text,
	"pricing_category" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"conversation_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"direction" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"type" text NOT NULL,
	"body" text,
	"media_id" text,
	"media_mime_type" text,
	"caption" text,
	"context_message_id" text,
	"payload" jsonb,
	"sent_at" timestamp with time zone NOT NULL,
	"status" text,
	"status_rank" integer DEFAULT 0 NOT NULL,
	"failed_at" timestamp with time zone,
	"error_code" integer,
	"content_removed_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple', coalesce("messages"."body", '') || ' ' || coalesce("messages"."caption", ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "llm_base_url" text;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "llm_model" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "raw_body_redacted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "raw_body_redaction" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_windows" ADD CONSTRAINT "conversation_windows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_windows" ADD CONSTRAINT "conversation_windows_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD CONSTRAINT "message_statuses_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_statuses" ADD CONSTRAINT "message_statuses_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_ws_phone_uq" ON "contacts" USING btree ("workspace_id","phone_number");--> statement-breakpoint
CREATE INDEX "contacts_ws_created_idx" ON "contacts" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversation_windows_ws_provider_uq" ON "conversation_windows" USING btree ("workspace_id","provider_conversation_id");--> statement-breakpoint
CREATE INDEX "conversation_windows_ws_conversation_idx" ON "conversation_windows" USING btree ("workspace_id","conversation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_ws_contact_uq" ON "conversations" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE INDEX "conversations_ws_last_message_idx" ON "conversations" USING btree ("workspace_id","last_message_at");--> statement-breakpoint
CREATE UNIQUE INDEX "message_statuses_ws_msg_status_ts_uq" ON "message_statuses" USING btree ("workspace_id","provider_message_id","status","occurred_at");--> statement-breakpoint
CREATE INDEX "message_statuses_ws_occurred_idx" ON "message_statuses" USING btree ("workspace_id","occurred_at");--> statement-breakpoint
CREATE INDEX "message_statuses_ws_contact_idx" ON "message_statuses" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_ws_provider_id_uq" ON "messages" USING btree ("workspace_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "messages_ws_conversation_idx" ON "messages" USING btree ("workspace_id","conversation_id","sent_at");--> statement-breakpoint
CREATE INDEX "messages_ws_contact_idx" ON "messages" USING btree ("workspace_id","contact_id");--> statement-breakpoint
CREATE INDEX "messages_ws_sent_idx" ON "messages" USING btree ("workspace_id","sent_at");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_vector");