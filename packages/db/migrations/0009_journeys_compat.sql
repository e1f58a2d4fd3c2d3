CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"template" jsonb NOT NULL,
	"segment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"scheduled_at" timestamp with time zone,
	"broadcast_id" text,
	"archived_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "compat_mappings" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"organization_id" text,
	"flow_id" text,
	"trigger_id" text DEFAULT '' NOT NULL,
	"legacy_path" text,
	"journey_id" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"journey_id" text NOT NULL,
	"journey_version" integer NOT NULL,
	"steps" jsonb NOT NULL,
	"contact_id" text NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger_ref" text NOT NULL,
	"personalization" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"workflow_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"current_step" text,
	"last_reply_at" timestamp with time zone,
	"failure_reason" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journeys" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"trigger_type" text NOT NULL,
	"trigger" jsonb NOT NULL,
	"steps" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "source_type" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "properties" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compat_mappings" ADD CONSTRAINT "compat_mappings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "compat_mappings" ADD CONSTRAINT "compat_mappings_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "public"."journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_journey_id_journeys_id_fk" FOREIGN KEY ("journey_id") REFERENCES "public"."journeys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journeys" ADD CONSTRAINT "journeys_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_ws_created_idx" ON "campaigns" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "compat_mappings_rest_uq" ON "compat_mappings" USING btree ("organization_id","flow_id","trigger_id") WHERE "compat_mappings"."kind" = 'rest_trigger';--> statement-breakpoint
CREATE UNIQUE INDEX "compat_mappings_path_uq" ON "compat_mappings" USING btree ("legacy_path") WHERE "compat_mappings"."kind" = 'legacy_path';--> statement-breakpoint
CREATE INDEX "compat_mappings_ws_idx" ON "compat_mappings" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "journey_runs_workflow_uq" ON "journey_runs" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "journey_runs_ws_journey_idx" ON "journey_runs" USING btree ("workspace_id","journey_id","created_at");--> statement-breakpoint
CREATE INDEX "journey_runs_ws_contact_live_idx" ON "journey_runs" USING btree ("workspace_id","contact_id") WHERE "journey_runs"."status" IN ('pending', 'running');--> statement-breakpoint
CREATE INDEX "journeys_ws_created_idx" ON "journeys" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "journeys_ws_trigger_idx" ON "journeys" USING btree ("workspace_id","status","trigger_type");--> statement-breakpoint
CREATE INDEX "contacts_ws_external_ref_idx" ON "contacts" USING btree ("workspace_id","external_reference_id") WHERE "contacts"."external_reference_id" IS NOT NULL;