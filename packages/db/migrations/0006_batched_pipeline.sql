ALTER TABLE "webhook_events" ADD COLUMN "workflow_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "run_id" text;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "outbox_jobs_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "ordering_key" text;--> statement-breakpoint
ALTER TABLE "outbox_jobs" ADD COLUMN "batch_id" text;--> statement-breakpoint
CREATE INDEX "outbox_jobs_pending_seq_idx" ON "outbox_jobs" USING btree ("job_type","seq") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_jobs_dispatched_idx" ON "outbox_jobs" USING btree ("job_type","batch_id") WHERE status = 'dispatched';