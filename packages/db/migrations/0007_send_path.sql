CREATE TABLE "outbound_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"broadcast_id" text,
	"phone_number_id" text NOT NULL,
	"to_phone" text NOT NULL,
	"type" text NOT NULL,
	"content" jsonb NOT NULL,
	"idempotency_key" text,
	"request_hash" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"status_rank" integer DEFAULT 0 NOT NULL,
	"status_history" jsonb NOT NULL,
	"provider_message_id" text,
	"error" jsonb,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"claimed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipient_sends" (
	"workspace_id" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"to_phone" text NOT NULL,
	"last_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "recipient_sends_pk" PRIMARY KEY("workspace_id","phone_number_id","to_phone")
);
--> statement-breakpoint
CREATE TABLE "send_governors" (
	"workspace_id" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"state" text DEFAULT 'idle' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "send_governors_pk" PRIMARY KEY("workspace_id","phone_number_id")
);
--> statement-breakpoint
CREATE TABLE "send_rate_windows" (
	"workspace_id" text NOT NULL,
	"phone_number_id" text NOT NULL,
	"second" bigint NOT NULL,
	"sends" integer NOT NULL,
	CONSTRAINT "send_rate_windows_pk" PRIMARY KEY("workspace_id","phone_number_id","second")
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text,
	"template" jsonb NOT NULL,
	"segment" jsonb NOT NULL,
	"phone_number_id" text NOT NULL,
	"status" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"enqueue_cursor" text,
	"enqueued" integer DEFAULT 0 NOT NULL,
	"enqueue_finished_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"failure_reason" text,
	"workflow_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "throughput_upgraded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "api_rate_limit_per_minute" integer;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_sends" ADD CONSTRAINT "recipient_sends_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_governors" ADD CONSTRAINT "send_governors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "send_rate_windows" ADD CONSTRAINT "send_rate_windows_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_messages_ws_idem_uq" ON "outbound_messages" USING btree ("workspace_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_messages_ws_provider_id_uq" ON "outbound_messages" USING btree ("workspace_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "outbound_messages_queue_idx" ON "outbound_messages" USING btree ("workspace_id","phone_number_id","not_before") WHERE status IN ('queued', 'sending');--> statement-breakpoint
CREATE INDEX "outbound_messages_ws_broadcast_idx" ON "outbound_messages" USING btree ("workspace_id","broadcast_id","status");--> statement-breakpoint
CREATE INDEX "outbound_messages_ws_contact_idx" ON "outbound_messages" USING btree ("workspace_id","contact_id","created_at");--> statement-breakpoint
CREATE INDEX "outbound_messages_ws_created_idx" ON "outbound_messages" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "broadcasts_ws_created_idx" ON "broadcasts" USING btree ("workspace_id","created_at","id");