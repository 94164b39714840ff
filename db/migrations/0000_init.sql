CREATE TABLE "claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"provider_name" text NOT NULL,
	"provider_id" integer,
	"model_name" text NOT NULL,
	"model_id" integer,
	"metric" text NOT NULL,
	"value" double precision NOT NULL,
	"unit" text NOT NULL,
	"bound" text NOT NULL,
	"measured_by" text,
	"claim_date" text NOT NULL,
	"source_key" text NOT NULL,
	"source_title" text,
	"source_publisher" text,
	"source_url" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dataset_rows" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"series_id" integer NOT NULL,
	"row_index" integer NOT NULL,
	"ttft_ms" double precision,
	"e2e_ms" double precision,
	"inter_token_latency_ms" double precision,
	"input_tokens" integer,
	"output_tokens" integer,
	"output_tokens_per_second" double precision,
	"llmperf_throughput_tokens_per_second" double precision,
	"error_code" text,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "dataset_series" (
	"id" serial PRIMARY KEY NOT NULL,
	"dataset_id" integer NOT NULL,
	"slug" text NOT NULL,
	"provider_name" text NOT NULL,
	"model_name" text NOT NULL,
	"summary" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "datasets" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"source" text NOT NULL,
	"source_url" text,
	"source_commit" text,
	"licence" text NOT NULL,
	"collected_on" text,
	"description" text,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "datasets_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"provider_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"base_url" text NOT NULL,
	"api_model_id" text NOT NULL,
	"api_key_env" text,
	"api_key_encrypted" text,
	"hardware" text,
	"engine" text,
	"precision" text,
	"speculative_decoding" text,
	"draft_length" integer,
	"deployment_kind" text,
	"region" text,
	"is_calibration" boolean DEFAULT false NOT NULL,
	"calibration_tps" double precision,
	"calibration_ttft_ms" double precision,
	"allow_private" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"owner_user_id" text,
	"contact" text,
	"notes" text,
	"not_before" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "endpoints_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "measurement_rollups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"granularity" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"endpoint_id" integer NOT NULL,
	"workload_id" integer NOT NULL,
	"worker_region" text NOT NULL,
	"count" integer NOT NULL,
	"successes" integer NOT NULL,
	"stats" jsonb NOT NULL,
	"error_kinds" jsonb NOT NULL,
	"sketches" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "measurements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_key" text NOT NULL,
	"endpoint_id" integer NOT NULL,
	"workload_id" integer NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"worker_region" text NOT NULL,
	"worker_version" text NOT NULL,
	"outcome" text NOT NULL,
	"error_kind" text,
	"error_message" text,
	"http_status" integer,
	"connect_ms" double precision,
	"ttfb_ms" double precision,
	"ttft_ms" double precision,
	"ttfat_ms" double precision,
	"e2e_ms" double precision,
	"output_tokens_reported" integer,
	"output_tokens_o200k" integer,
	"output_tokens_per_second" double precision,
	"output_tokens_per_second_o200k" double precision,
	"tpot_ms" double precision,
	"content_chunks" integer DEFAULT 0 NOT NULL,
	"finish_reason" text,
	"prompt_hash" text,
	"timeline" "bytea",
	"flags" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"valid" boolean DEFAULT true NOT NULL,
	"invalid_reason" text,
	"event_loop_delay_p99_ms" double precision,
	CONSTRAINT "measurements_job_key_unique" UNIQUE("job_key")
);
--> statement-breakpoint
CREATE TABLE "models" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"family" text,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "models_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "probe_slots" (
	"job_key" text PRIMARY KEY NOT NULL,
	"boss_job_id" text NOT NULL,
	"worker_id" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'provider' NOT NULL,
	"website_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "providers_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "snapshots" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"query" jsonb NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workloads" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"input_tokens_target" integer NOT NULL,
	"max_output_tokens" integer NOT NULL,
	"concurrency" integer DEFAULT 1 NOT NULL,
	"scheduled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workloads_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "claims" ADD CONSTRAINT "claims_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_rows" ADD CONSTRAINT "dataset_rows_series_id_dataset_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."dataset_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_series" ADD CONSTRAINT "dataset_series_dataset_id_datasets_id_fk" FOREIGN KEY ("dataset_id") REFERENCES "public"."datasets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_rollups" ADD CONSTRAINT "measurement_rollups_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurement_rollups" ADD CONSTRAINT "measurement_rollups_workload_id_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."workloads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_workload_id_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."workloads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "claims_natural_uq" ON "claims" USING btree ("subject","metric","claim_date","source_key");--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_rows_uq" ON "dataset_rows" USING btree ("series_id","row_index");--> statement-breakpoint
CREATE UNIQUE INDEX "dataset_series_uq" ON "dataset_series" USING btree ("dataset_id","slug");--> statement-breakpoint
CREATE INDEX "endpoints_model_idx" ON "endpoints" USING btree ("model_id");--> statement-breakpoint
CREATE INDEX "endpoints_status_idx" ON "endpoints" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "rollups_bucket_uq" ON "measurement_rollups" USING btree ("granularity","bucket_start","endpoint_id","workload_id","worker_region");--> statement-breakpoint
CREATE INDEX "rollups_time_idx" ON "measurement_rollups" USING btree ("granularity","bucket_start");--> statement-breakpoint
CREATE INDEX "measurements_endpoint_time_idx" ON "measurements" USING btree ("endpoint_id","measured_at");--> statement-breakpoint
CREATE INDEX "measurements_workload_time_idx" ON "measurements" USING btree ("workload_id","measured_at");