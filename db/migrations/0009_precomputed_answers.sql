CREATE TABLE "precomputed_answers" (
	"key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"as_of" timestamp with time zone NOT NULL,
	"snapshot_id" text NOT NULL,
	"etag" text NOT NULL,
	"body" text NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL
);
