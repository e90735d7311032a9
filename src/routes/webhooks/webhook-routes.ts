import { Type } from 'typebox';
import type { App } from '../../http/app-types.ts';
import type { AppContext } from '../../app-context.ts';
import { registerResourceRoutes } from '../resource-routes.ts';
import { ErrorResponse, dataResponse } from '../../schemas/common.ts';
import {
  WebhookAttemptView,
  WebhookAttemptsQuery,
  WebhookBody,
  WebhookIdParams,
  WebhookView,
} from '../../schemas/webhook.ts';
import { toWebhookView, webhookBodyErrors } from '../../webhooks/webhook-store.ts';
import { recentAttempts } from '../../webhooks/webhook-attempts.ts';

/** Webhook endpoints (CONTRACTS §17): the five resource routes and the list of recent attempts. */
export function registerWebhookRoutes(app: App, context: AppContext): void {
  registerResourceRoutes(app, {
    collection: 'webhooks',
    noun: 'webhook endpoint',
    Body: WebhookBody,
    View: WebhookView,
    store: context.webhooks,
    toView: toWebhookView,
    pastSchemaErrors: webhookBodyErrors(context.config.webhooks.allowPrivate),
    summaries: {
      create: 'Create a webhook endpoint; the answer holds its signing secret, shown this once',
      description:
        'Each event is POSTed as {"type", "timestamp", "data"}, signed per the Standard Webhooks specification ' +
        '(webhook-id, webhook-timestamp, webhook-signature), and retried for 24 hours with the same webhook-id.',
      replace: 'Replace a webhook endpoint; "enabled": true re-enables one the service disabled',
      delete: 'Delete a webhook endpoint; events not yet delivered to it are dropped',
    },
  });
  app.get(
    '/webhooks/:id/attempts',
    {
      schema: {
        operationId: 'listWebhookAttempts',
        summary: "A webhook endpoint's recent delivery attempts, newest first, with status code and duration",
        tags: ['webhooks'],
        params: WebhookIdParams,
        querystring: WebhookAttemptsQuery,
        response: { 200: dataResponse(Type.Array(WebhookAttemptView)), 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request) => ({
      data: await recentAttempts(context, request.params.projectId, request.params.id, request.query.limit),
    }),
  );
}
