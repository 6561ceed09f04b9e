/** One Content-Security-Policy for the Electron window and browser mode. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1'])

/** Whether a host name is the loopback host, the way DNS compares names: case-insensitive, a trailing root dot allowed. */
export function isLoopbackHost(name: string): boolean {
  const n = name.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return LOOPBACK_HOSTS.has(n.endsWith('.') && n !== '.' ? n.slice(0, -1) : n)
}
