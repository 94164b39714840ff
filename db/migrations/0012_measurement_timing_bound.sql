ALTER TABLE "measurements" ADD COLUMN "ttft_bound_ms" double precision;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "e2e_bound_ms" double precision;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "speed_bound_pct" double precision;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_timing_bounds_nonnegative" CHECK ("ttft_bound_ms" >= 0 AND "e2e_bound_ms" >= 0 AND "speed_bound_pct" >= 0);
