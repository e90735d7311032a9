import type { Connection } from 'mongoose';

/** Where the MongoDB-wire server behind a connection differs from MongoDB 7+, found once at start-up. */
export interface ServerCapabilities {
  /** Compound wildcard indexes such as {projectId: 1, "tags.$**": 1}. */
  wildcardIndexes: boolean;
  /**
   * Field paths with an element that starts or ends with whitespace (`tags. plan`), in filters and updates.
   * CONTRACTS §4 allows such tag keys; FerretDB 1.x refuses the paths ("path element must not contain spaces").
   */
  whitespaceEdgedPathElements: boolean;
}

/** FerretDB names itself in buildInfo; asking it to try instead is unsafe (a wildcard index breaks every later insert). */
export async function detectServerCapabilities(connection: Connection): Promise<ServerCapabilities> {
  const buildInfo = await connection.db!.admin().command({ buildInfo: 1 });
  const isFerretDb = buildInfo.ferretdbVersion !== undefined;
  return { wildcardIndexes: !isFerretDb, whitespaceEdgedPathElements: !isFerretDb };
}

/** True when the key, as one element of a field path, is refused by a server without whitespaceEdgedPathElements. */
export const hasWhitespaceEdge = (key: string): boolean => key.trim() !== key;
