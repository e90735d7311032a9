import { Type, type Static, type TSchema } from 'typebox';
import type { App } from '../http/app-types.ts';
import type { ErrorDetail } from '../errors.ts';
import { assertRequestValid } from '../http/invalid-request-details.ts';
import { ErrorResponse, ProjectParams, ResourceListQuery, dataResponse } from '../schemas/common.ts';
import type { PageBoundary } from '../infra/newest-first-page.ts';
import { pageBoundary } from '../http/page-boundary.ts';

/** What the console resources (templates, segments, journeys) store: one document per id within a project. */
export interface ResourceStore<Input, Stored> {
  create(projectId: string, input: Input): Promise<Stored>;
  /** Newest first, after the boundary. */
  list(projectId: string, limit: number, before?: PageBoundary): Promise<Stored[]>;
  /** Where a page ending with the item `id` ends; null when the project has no such item. */
  boundary(projectId: string, id: string): Promise<PageBoundary | null>;
  find(projectId: string, id: string): Promise<Stored>;
  replace(projectId: string, id: string, input: Input): Promise<Stored>;
  delete(projectId: string, id: string): Promise<void>;
}

export interface ResourceRoutes<Body extends TSchema, View extends TSchema, Stored> {
  /** The path segment and OpenAPI tag, e.g. "templates". */
  collection: string;
  noun: string;
  Body: Body;
  View: View;
  store: ResourceStore<Static<Body>, Stored>;
  toView(stored: Stored): Static<View>;
  /** The read of one item, when it says more than the list does (an in-app message's stats); toView otherwise. */
  detailView?(projectId: string, stored: Stored): Promise<Static<View>>;
  /** The store's checks past the schema, run on a body that failed it so that one 400 names every offending field. */
  pastSchemaErrors(body: unknown): ErrorDetail[];
  /** What creating, replacing and deleting one means for sends, shown in the OpenAPI summaries. */
  summaries: { create: string; replace: string; delete: string; description?: string };
}

export const ResourceIdParams = Type.Object({
  projectId: ProjectParams.properties.projectId,
  id: Type.String({ minLength: 1, maxLength: 128 }),
});

/** POST and GET on the collection; GET, PUT and DELETE on one item (CONTRACTS §7 and the journeys of the segments issue). */
export function registerResourceRoutes<Body extends TSchema, View extends TSchema, Stored>(
  app: App,
  resource: ResourceRoutes<Body, View, Stored>,
): void {
  const { collection, noun, store, toView, summaries, pastSchemaErrors } = resource;
  const tags = [collection];
  // The schemas are widened to TSchema: generic schemas defeat the type provider's inference, and the store's types
  // (derived from the same schemas by the caller) already type what goes in and out.
  const view: TSchema = resource.View;
  const body: TSchema = resource.Body;
  const one = dataResponse(view);
  const itemPath = `/${collection}/:id`;
  // The OpenAPI operation ids, and so the typed client's calls: "in-app message" names createInAppMessage.
  const name = noun.replace(/(?:^|[\s-])(\w)/g, (_match, letter: string) => letter.toUpperCase());

  app.post(
    `/${collection}`,
    {
      schema: {
        operationId: `create${name}`,
        summary: summaries.create,
        description: summaries.description,
        tags,
        params: ProjectParams,
        body,
        response: { 200: one, 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      assertRequestValid(request, () => pastSchemaErrors(request.body));
      return { data: toView(await store.create(request.params.projectId, request.body as Static<Body>)) };
    },
  );
  app.get(
    `/${collection}`,
    {
      schema: {
        operationId: `list${name}s`,
        summary: `List ${collection}, newest first`,
        description: `Page with limit (default 100, at most 1000) and before: the id of the last ${noun} seen, or its createdAt (an ISO 8601 time). A page holds its last millisecond whole, so it can exceed limit and the next one skips none.`,
        tags,
        params: ProjectParams,
        querystring: ResourceListQuery,
        response: { 200: dataResponse(Type.Array(view)), 400: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      const { projectId } = request.params;
      const before = await pageBoundary(request, `a ${noun} of this project`, (id) => store.boundary(projectId, id));
      return { data: (await store.list(projectId, request.query.limit, before)).map(toView) };
    },
  );
  app.get(
    itemPath,
    {
      schema: {
        operationId: `get${name}`,
        summary: `Read a ${noun}`,
        tags,
        params: ResourceIdParams,
        response: { 200: one, 404: ErrorResponse },
      },
    },
    async (request) => {
      const { projectId, id } = request.params;
      const stored = await store.find(projectId, id);
      return { data: resource.detailView ? await resource.detailView(projectId, stored) : toView(stored) };
    },
  );
  app.put(
    itemPath,
    {
      schema: {
        operationId: `replace${name}`,
        summary: summaries.replace,
        tags,
        params: ResourceIdParams,
        body,
        response: { 200: one, 400: ErrorResponse, 404: ErrorResponse },
      },
      attachValidation: true,
    },
    async (request) => {
      assertRequestValid(request, () => pastSchemaErrors(request.body));
      return {
        data: toView(await store.replace(request.params.projectId, request.params.id, request.body as Static<Body>)),
      };
    },
  );
  app.delete(
    itemPath,
    {
      schema: {
        operationId: `delete${name}`,
        summary: summaries.delete,
        tags,
        params: ResourceIdParams,
        response: {
          200: dataResponse(Type.Object({ id: Type.String(), deleted: Type.Boolean() })),
          404: ErrorResponse,
        },
      },
    },
    async (request) => {
      await store.delete(request.params.projectId, request.params.id);
      return { data: { id: request.params.id, deleted: true } };
    },
  );
}
