/** Schemes that run or embed content where the link is opened, instead of going to a page or an app. */
const refusedSchemes = ['javascript', 'data', 'vbscript'];

/**
 * The one URL rule for every link and image a push, a button or an in-app message carries (CONTRACTS §14, §16): no
 * javascript:, data: or vbscript: URL. The URL is read as a browser reads it: leading spaces and control characters
 * dropped, tabs and line breaks removed anywhere, the scheme in any case (`JavaScript:`, `java\tscript:`). Any other
 * scheme is taken: an app's own (`myapp://product/1`) opens the app.
 */
export function refusedUrlProblem(url: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a browser drops are the point
  const asRead = url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(asRead)?.[1]?.toLowerCase();
  if (scheme === undefined || !refusedSchemes.includes(scheme)) return null;
  return `must not be a ${scheme}: URL (javascript:, data: and vbscript: URLs are refused)`;
}

/** The pattern of an http(s) URL whose scheme is in any case, for schemas (JSON Schema patterns take no flags). */
export const httpUrlPattern = '^[hH][tT][tT][pP][sS]?://[^\\s\\u0000]+$';
