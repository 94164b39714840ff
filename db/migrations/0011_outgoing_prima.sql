ALTER TABLE "sweep_levels" ADD COLUMN "failed_streams_not_stored" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "max_levels" integer DEFAULT 9 NOT NULL;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_by_user_id" text;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_max_concurrency" integer;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_duration_ms" integer;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_max_levels" integer;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD COLUMN "approved_base_url" text;--> statement-breakpoint
-- Decision 160: consent given by an admin before admin consent was recorded apart counts as that admin's consent to the limits it set, for the URL the endpoint has now; an owner's consent alone waits for an admin.
UPDATE "sweep_settings" s SET "approved_by_user_id" = s."consented_by_user_id", "approved_at" = s."consented_at", "approved_max_concurrency" = s."max_concurrency", "approved_duration_ms" = s."duration_ms", "approved_max_levels" = s."max_levels", "approved_base_url" = e."base_url" FROM "users" u, "endpoints" e WHERE s."enabled" AND u."id" = s."consented_by_user_id" AND u."role" = 'admin' AND e."id" = s."endpoint_id";
