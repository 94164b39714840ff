CREATE TABLE "annotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint_id" integer,
	"worker_region" text,
	"from_at" timestamp with time zone NOT NULL,
	"until_at" timestamp with time zone NOT NULL,
	"text" text NOT NULL,
	"dispute_id" integer,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "annotations_period_check" CHECK ("annotations"."until_at" > "annotations"."from_at")
);
--> statement-breakpoint
CREATE TABLE "disputes" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"opened_by_user_id" text,
	"scope" text NOT NULL,
	"measurement_id" bigint,
	"from_at" timestamp with time zone NOT NULL,
	"until_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	"evidence" text,
	"links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"exclude" boolean DEFAULT false NOT NULL,
	"resolution" text,
	"resolved_by_user_id" text,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "disputes_period_check" CHECK ("disputes"."until_at" > "disputes"."from_at"),
	CONSTRAINT "disputes_measurement_check" CHECK (("disputes"."scope" = 'measurement') = ("disputes"."measurement_id" is not null)),
	CONSTRAINT "disputes_exclude_check" CHECK (not "disputes"."exclude" or "disputes"."status" = 'accepted')
);
--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_dispute_id_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."disputes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "annotations" ADD CONSTRAINT "annotations_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_opened_by_user_id_users_id_fk" FOREIGN KEY ("opened_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_resolved_by_user_id_users_id_fk" FOREIGN KEY ("resolved_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "annotations_period_idx" ON "annotations" USING btree ("from_at");--> statement-breakpoint
CREATE INDEX "disputes_endpoint_idx" ON "disputes" USING btree ("endpoint_id","from_at");