/** The token of an `Authorization` header: `Bearer <token>`, or Basic with the token as username. */
export function presentedToken(authorization: string | undefined): string | null {
  if (!authorization) return null;
  const [scheme, value] = authorization.trim().split(/\s+/, 2);
  if (!value) return null;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const username = decoded.split(':')[0];
    return username || null;
  }
  return null;
}
