CREATE TABLE "rollup_progress" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"seen_max_ids" bigint[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
