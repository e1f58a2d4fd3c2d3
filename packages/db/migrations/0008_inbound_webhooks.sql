CREATE TABLE "inbound_webhook_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"inbound_webhook_id" text NOT NULL,
	"status" text NOT NULL,
	"http_status" integer,
	"dry_run" boolean NOT NULL,
	"idempotency_key" text,
	"reserves_key" boolean DEFAULT false NOT NULL,
	"duplicate_of_run_id" text,
	"signature_scheme" text,
	"request_id" text,
	"headers" jsonb NOT NULL,
	"payload_shape" jsonb,
	"mapped_request" jsonb,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message_id" text,
	"contact_id" text,
	"received_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "inbound_webhooks" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"dry_run" boolean DEFAULT true NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_prefix" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"template_name" text,
	"template_locale" text,
	"origin" text NOT NULL,
	"secret_rotated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_webhook_runs" ADD CONSTRAINT "inbound_webhook_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_webhook_runs" ADD CONSTRAINT "inbound_webhook_runs_inbound_webhook_id_inbound_webhooks_id_fk" FOREIGN KEY ("inbound_webhook_id") REFERENCES "public"."inbound_webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_webhooks" ADD CONSTRAINT "inbound_webhooks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_webhook_runs_key_uq" ON "inbound_webhook_runs" USING btree ("inbound_webhook_id","idempotency_key") WHERE reserves_key;--> statement-breakpoint
CREATE INDEX "inbound_webhook_runs_webhook_idx" ON "inbound_webhook_runs" USING btree ("workspace_id","inbound_webhook_id","id");--> statement-breakpoint
CREATE INDEX "inbound_webhook_runs_contact_idx" ON "inbound_webhook_runs" USING btree ("workspace_id","contact_id") WHERE contact_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_webhooks_slug_uq" ON "inbound_webhooks" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "inbound_webhooks_ws_idx" ON "inbound_webhooks" USING btree ("workspace_id","id");