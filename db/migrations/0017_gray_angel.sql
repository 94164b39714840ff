ALTER TABLE "endpoint_submissions" ADD COLUMN "provider_claim" text DEFAULT 'unverified' NOT NULL;--> statement-breakpoint
-- Decision 162: submissions that created their provider are new_provider; reviewed ones were linked by the reviewing admin; pending ones naming an existing provider stay unverified.
UPDATE "endpoint_submissions" SET "provider_claim" = CASE WHEN "proposed_provider" THEN 'new_provider' WHEN "reviewed_at" IS NOT NULL THEN 'admin_linked' ELSE 'unverified' END;
