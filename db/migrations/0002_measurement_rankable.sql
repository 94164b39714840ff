ALTER TABLE "measurements" ADD COLUMN "rankable" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "not_rankable_reasons" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "evidence" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "retry_after_ms" integer;--> statement-breakpoint
-- Backfill (decision 060): existing rows get the reasons their own columns already show.
UPDATE "measurements" SET "not_rankable_reasons" = array_remove(ARRAY[
  CASE WHEN "outcome" <> 'success' THEN 'failed' END,
  CASE WHEN "flags"->>'unrecognizedShape' = 'true' THEN 'unrecognized_shape' END,
  CASE WHEN "flags"->>'tokenCountMismatch' = 'true' THEN 'token_count_mismatch' END,
  CASE WHEN "flags"->>'buffered' = 'true' THEN 'buffered_stream' END,
  CASE WHEN NOT "valid" THEN 'event_loop_stall' END
]::text[], NULL);--> statement-breakpoint
UPDATE "measurements" SET "rankable" = false WHERE cardinality("not_rankable_reasons") > 0;
