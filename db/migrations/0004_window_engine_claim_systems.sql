ALTER TABLE "claims" ADD COLUMN "system" text;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "system" text;--> statement-breakpoint
ALTER TABLE "measurement_rollups" ADD COLUMN "sketch_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "measurement_rollups" ADD COLUMN "excluded" jsonb DEFAULT '{"total":0,"byReason":{}}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "rollups_stale_sketch_idx" ON "measurement_rollups" USING btree ("granularity","bucket_start") WHERE sketch_version < 2;