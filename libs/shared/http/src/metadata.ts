export const REQUIRED_SCOPES_KEY = 'workbase:required-scopes';
export const PUBLIC_ROUTE_KEY = 'workbase:public-route';
export const ADMIN_ONLY_KEY = 'workbase:admin-only';
