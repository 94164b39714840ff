CREATE TABLE "sweep_levels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sweep_id" bigint NOT NULL,
	"level_index" integer NOT NULL,
	"concurrency" integer NOT NULL,
	"requests" integer NOT NULL,
	"successes" integer NOT NULL,
	"error_kinds" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"output_tokens_per_second_per_user" jsonb,
	"ttft_ms" jsonb,
	"tpot_ms" jsonb,
	"aggregate_output_tokens_per_second" double precision NOT NULL,
	"completed_requests_per_second" double precision NOT NULL,
	"goodput_requests_per_second" double precision NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	"window_duration_ms" double precision NOT NULL,
	"streams" jsonb NOT NULL,
	"event_loop_delay_p99_ms" double precision NOT NULL,
	"valid" boolean NOT NULL,
	"stop_reason" text
);
--> statement-breakpoint
CREATE TABLE "sweep_settings" (
	"endpoint_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"max_concurrency" integer DEFAULT 64 NOT NULL,
	"duration_ms" integer DEFAULT 30000 NOT NULL,
	"consented_by_user_id" text,
	"consented_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sweep_streams" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sweep_id" bigint NOT NULL,
	"sweep_level_id" bigint NOT NULL,
	"slot" integer NOT NULL,
	"phase" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"outcome" text NOT NULL,
	"error_kind" text,
	"error_message" text,
	"http_status" integer,
	"ttfb_ms" double precision,
	"ttft_ms" double precision,
	"e2e_ms" double precision,
	"output_tokens_reported" integer,
	"output_tokens_o200k" integer,
	"output_tokens_per_second" double precision,
	"tpot_ms" double precision,
	"content_chunks" integer DEFAULT 0 NOT NULL,
	"finish_reason" text,
	"timeline" "bytea",
	"flags" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sweeps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by_user_id" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"concurrency_levels" integer[] NOT NULL,
	"duration_ms" integer NOT NULL,
	"warm_up_ms" integer NOT NULL,
	"max_output_tokens" integer NOT NULL,
	"objective_ttft_ms" double precision NOT NULL,
	"objective_tpot_ms" double precision NOT NULL,
	"min_success_rate" double precision NOT NULL,
	"gpu_count" integer,
	"stop_reason" text,
	"stopped_at_concurrency" integer,
	"error_message" text,
	"current_concurrency" integer,
	"streams_done" integer DEFAULT 0 NOT NULL,
	"worker_region" text,
	"worker_version" text
);
--> statement-breakpoint
ALTER TABLE "endpoints" ADD COLUMN "gpu_count" integer;--> statement-breakpoint
ALTER TABLE "sweep_levels" ADD CONSTRAINT "sweep_levels_sweep_id_sweeps_id_fk" FOREIGN KEY ("sweep_id") REFERENCES "public"."sweeps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweep_settings" ADD CONSTRAINT "sweep_settings_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweep_streams" ADD CONSTRAINT "sweep_streams_sweep_id_sweeps_id_fk" FOREIGN KEY ("sweep_id") REFERENCES "public"."sweeps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweep_streams" ADD CONSTRAINT "sweep_streams_sweep_level_id_sweep_levels_id_fk" FOREIGN KEY ("sweep_level_id") REFERENCES "public"."sweep_levels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sweeps" ADD CONSTRAINT "sweeps_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sweep_levels_sweep_level_uq" ON "sweep_levels" USING btree ("sweep_id","level_index");--> statement-breakpoint
CREATE INDEX "sweep_streams_level_idx" ON "sweep_streams" USING btree ("sweep_level_id");--> statement-breakpoint
CREATE INDEX "sweep_streams_sweep_idx" ON "sweep_streams" USING btree ("sweep_id");--> statement-breakpoint
CREATE INDEX "sweeps_endpoint_time_idx" ON "sweeps" USING btree ("endpoint_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sweeps_one_active_per_endpoint_uq" ON "sweeps" USING btree ("endpoint_id") WHERE status IN ('queued', 'running');