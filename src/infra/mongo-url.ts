import { ConnectionString } from 'mongodb-connection-string-url';

/**
 * The same server and options with another database: string concatenation breaks on a URL that already names a
 * database, carries options (`?retryWrites=false`) or is `mongodb+srv://`, so the driver's own parser builds it.
 * A URL with credentials and no authSource logs in against its path's database (admin when none): that stays the
 * authSource, so moving to another database does not change where the user is looked up.
 */
export function withDatabase(url: string, database: string): string {
  const parsed = new ConnectionString(url);
  if (parsed.username !== '' && !urlSetsOption(url, 'authSource'))
    parsed.searchParams.set('authSource', databaseOf(url) ?? 'admin');
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** The database a URL names, if any. */
export function databaseOf(url: string): string | undefined {
  const name = decodeURIComponent(new ConnectionString(url).pathname.replace(/^\//, ''));
  return name === '' ? undefined : name;
}

/** True when the URL sets the option itself (case-insensitively, as the driver reads options). */
export function urlSetsOption(url: string, option: string): boolean {
  const wanted = option.toLowerCase();
  return [...new ConnectionString(url).searchParams.keys()].some((key) => key.toLowerCase() === wanted);
}
