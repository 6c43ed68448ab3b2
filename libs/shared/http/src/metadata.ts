export const REQUIRED_SCOPES_KEY = 'workbase:required-scopes';
export const PUBLIC_ROUTE_KEY = 'workbase:public-route';
export const ADMIN_ONLY_KEY = 'workbase:admin-only';
/** Set with REQUIRED_SCOPES_KEY by `RequireAnyScope`: one of the declared scopes is enough. */
export const ANY_SCOPE_KEY = 'workbase:any-scope';
/** Set by `RouteRateLimit`: requests per second this route allows on top of the read/write limits. */
export const ROUTE_RATE_LIMIT_KEY = 'workbase:route-rate-limit';
