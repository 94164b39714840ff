ALTER TABLE "endpoints" ADD COLUMN "service_tier" jsonb;--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "tier_objective" jsonb;--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "tier_objective_met" smallint;--> statement-breakpoint
-- column names unqualified: the check recurses into every monthly partition (decision 217), where "measurements". would name no table
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_tier_objective_met_check" CHECK ("tier_objective_met" in (0, 1) and ("tier_objective_met" is null or "outcome" = 'success'));