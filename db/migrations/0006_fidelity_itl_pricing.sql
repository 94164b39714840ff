ALTER TABLE "endpoints" ADD COLUMN "pricing" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "context_window_tokens" integer;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "itl_p50_ms" double precision;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "itl_p95_ms" double precision;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "fidelity_check" text;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "fidelity_passed" boolean;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "fidelity_detail" jsonb;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "answer_text" text;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "reasoning_tokens_hidden" integer;--> statement-breakpoint
ALTER TABLE "workloads" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "measurements_fidelity_idx" ON "measurements" USING btree ("endpoint_id","workload_id","measured_at") WHERE fidelity_check IS NOT NULL;