// Where things live, shared by the gateway's hooks and routes (a leaf module: it imports nothing of
// the gateway, so the files that share these names import in one direction).

/** Every keyless demo twin sits under this prefix: /v1/demo/<endpoint>. */
export const DEMO_PREFIX = '/v1/demo/';

/** The demo twin's path of a keyed path: /v1/pair → /v1/demo/pair. */
export function demoPathOf(keyedPath: string) {
  return keyedPath.replace(/^\/v1\//, DEMO_PREFIX);
}

/** Where a caller is sent to choose a plan (error details, demo objects). */
export function plansUrl(ctx: { config: { publicBaseUrl: string } }) {
  return `${ctx.config.publicBaseUrl}/plans`;
}
