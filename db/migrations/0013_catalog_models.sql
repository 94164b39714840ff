ALTER TABLE "endpoints" ADD COLUMN "catalog_source" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "retired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "creator" text;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "weights" text;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "weights_url" text;--> statement-breakpoint
ALTER TABLE "models" ADD COLUMN "retired_at" timestamp with time zone;