CREATE TABLE "window_partial_coverage" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "window_partials" (
	"span_minutes" integer NOT NULL,
	"workload_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"region_key" text NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"body" "bytea" NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "window_partials_workload_id_model_id_region_key_span_minutes_bucket_start_pk" PRIMARY KEY("workload_id","model_id","region_key","span_minutes","bucket_start")
);
--> statement-breakpoint
ALTER TABLE "window_partials" ADD CONSTRAINT "window_partials_workload_id_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."workloads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "window_partials" ADD CONSTRAINT "window_partials_model_id_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "window_partial_coverage" ADD CONSTRAINT "window_partial_coverage_one_row" CHECK ("id" = 1 AND "from_at" <= "to_at");--> statement-breakpoint
ALTER TABLE "window_partials" ADD CONSTRAINT "window_partials_span_check" CHECK ("span_minutes" IN (10, 60, 360, 1440, 10080, 40320) AND "region_key" <> '');
