CREATE TABLE "data_changes" (
	"version" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"changed_from" timestamp with time zone,
	"changed_to" timestamp with time zone,
	"live_as_of" timestamp with time zone,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
