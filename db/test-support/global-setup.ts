// Placeholder replaced by the database test harness (starts one Postgres for the whole run).
export default async function setup(): Promise<void> {}
