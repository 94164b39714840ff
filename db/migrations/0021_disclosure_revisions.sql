CREATE TABLE "disclosure_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"number" integer NOT NULL,
	"effective_from" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"changed_by_user_id" text,
	"values" jsonb NOT NULL,
	"changed_fields" text[] DEFAULT '{}'::text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "measurements" ADD COLUMN "disclosure_revision_id" integer;--> statement-breakpoint
ALTER TABLE "disclosure_revisions" ADD CONSTRAINT "disclosure_revisions_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disclosure_revisions_endpoint_number_uq" ON "disclosure_revisions" USING btree ("endpoint_id","number");--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_disclosure_revision_id_disclosure_revisions_id_fk" FOREIGN KEY ("disclosure_revision_id") REFERENCES "public"."disclosure_revisions"("id") ON DELETE no action ON UPDATE no action;