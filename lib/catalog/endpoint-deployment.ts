/**
 * The declared facts of how an endpoint is served: hardware, engine, precision, speculative
 * decoding (text, null = undeclared) and deployment kind (shared, dedicated or self-hosted). The
 * same five columns db/queries/endpoint-columns.ts selects as `endpointDeploymentColumns`; the
 * catalogue, the seed and a submission copy them onto the endpoint row with deploymentOf.
 */
export const DEPLOYMENT_FIELDS = ['hardware', 'engine', 'precision', 'speculativeDecoding', 'deploymentKind'] as const;
export type DeploymentField = (typeof DEPLOYMENT_FIELDS)[number];

/**
 * The declared facts of where and how an endpoint serves, as text (null = undeclared), with the
 * draft length of its speculative decoding (tokens): what a submission and its form carry beside
 * the deployment kind.
 */
export interface DeclaredServingFacts {
  region: string | null;
  hardware: string | null;
  engine: string | null;
  precision: string | null;
  speculativeDecoding: string | null;
  draftLength: number | null;
}

/** The five deployment fields of `e`, with their types as `e` has them (other keys left behind). */
export function deploymentOf<T extends Record<DeploymentField, unknown>>(e: T): Pick<T, DeploymentField> {
  return { hardware: e.hardware, engine: e.engine, precision: e.precision, speculativeDecoding: e.speculativeDecoding, deploymentKind: e.deploymentKind };
}
