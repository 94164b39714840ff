ALTER TABLE "measurements" ADD COLUMN "cached_input_tokens" integer;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "cache_write_input_tokens" integer;