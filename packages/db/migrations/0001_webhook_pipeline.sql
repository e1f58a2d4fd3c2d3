CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"source" text NOT NULL,
	"topic" text NOT NULL,
	"request_id" text NOT NULL,
	"delivery_id" text,
	"duplicate_of_id" text,
	"signature_valid" boolean NOT NULL,
	"signature_error" text,
	"headers" jsonb NOT NULL,
	"query" jsonb NOT NULL,
	"body_hash" text NOT NULL,
	"raw_body" "bytea",
	"body_size" integer NOT NULL,
	"account_id" text,
	"phone_number_id" text,
	"display_phone_number" text,
	"summary" jsonb NOT NULL,
	"normalization_status" text NOT NULL,
	"response_status" integer NOT NULL,
	"ingest_micros" integer,
	"replay_of_id" text,
	"replayed_by" text,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"job_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"dedup_key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"workflow_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"dispatched_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"webhook_event_id" text NOT NULL,
	"job_id" text NOT NULL,
	"topic" text NOT NULL,
	"status" text NOT NULL,
	"families" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_rejections" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"webhook_event_id" text NOT NULL,
	"source" text NOT NULL,
	"topic" text NOT NULL,
	"reason" text NOT NULL,
	"signature_valid" boolean DEFAULT false NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_heartbeats" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"details" jsonb,
	"started_at" timestamp with time zone NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD CONSTRAINT "outbox_jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_rejections" ADD CONSTRAINT "webhook_rejections_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_events_ws_received_idx" ON "webhook_events" USING btree ("workspace_id","received_at");--> statement-breakpoint
CREATE INDEX "webhook_events_ws_topic_idx" ON "webhook_events" USING btree ("workspace_id","topic","received_at");--> statement-breakpoint
CREATE INDEX "webhook_events_ws_delivery_idx" ON "webhook_events" USING btree ("workspace_id","delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_jobs_ws_dedup_uq" ON "outbox_jobs" USING btree ("workspace_id","dedup_key");--> statement-breakpoint
CREATE INDEX "outbox_jobs_pending_idx" ON "outbox_jobs" USING btree ("status","available_at");--> statement-breakpoint
CREATE INDEX "outbox_jobs_ws_created_idx" ON "outbox_jobs" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_ws_job_uq" ON "webhook_deliveries" USING btree ("workspace_id","job_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_ws_created_idx" ON "webhook_deliveries" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_ws_event_idx" ON "webhook_deliveries" USING btree ("workspace_id","webhook_event_id");--> statement-breakpoint
CREATE INDEX "webhook_rejections_ws_received_idx" ON "webhook_rejections" USING btree ("workspace_id","received_at");