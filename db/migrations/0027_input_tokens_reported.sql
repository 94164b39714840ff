ALTER TABLE "measurements" ADD COLUMN "input_tokens_reported" integer;--> statement-breakpoint
-- column name unqualified: the check recurses into every monthly partition (decision 217), where "measurements". would name no table
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_input_tokens_reported_check" CHECK ("input_tokens_reported" >= 0);