import type { FastifySchemaCompiler } from 'fastify';
import { bodyAjv, textAjv } from '../schemas/validation.ts';

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};
