CREATE TABLE "templates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"parameter_format" text DEFAULT 'POSITIONAL' NOT NULL,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"provider_template_id" text,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "synced_templates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"provider_template_id" text NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"status" text NOT NULL,
	"parameter_format" text,
	"components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rejection_reason" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "synced_templates" ADD CONSTRAINT "synced_templates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "templates_ws_name_language_uq" ON "templates" USING btree ("workspace_id","name","language");--> statement-breakpoint
CREATE INDEX "templates_ws_updated_idx" ON "templates" USING btree ("workspace_id","updated_at");--> statement-breakpoint
CREATE INDEX "templates_ws_provider_id_idx" ON "templates" USING btree ("workspace_id","provider_template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "synced_templates_ws_provider_id_uq" ON "synced_templates" USING btree ("workspace_id","provider_template_id");--> statement-breakpoint
CREATE UNIQUE INDEX "synced_templates_ws_name_language_uq" ON "synced_templates" USING btree ("workspace_id","name","language");